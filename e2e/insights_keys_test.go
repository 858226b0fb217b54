package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// topKeysAnswer is what POST /console/api/insights answers, as far as the
// test reads it: each rule's kind (PKC, SKC, PKT, SKT), its total, and
// its contributors as "key[/sort key]=count".
type topKeysAnswer struct {
	Status string
	Rules  []string
}

func readTopKeys(t *testing.T, url, table, index string) (topKeysAnswer, string, int) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"table": table, "index": index})
	res, err := http.Post(url+"/console/api/insights", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return topKeysAnswer{}, string(raw), res.StatusCode
	}
	var r struct {
		Status string `json:"status"`
		Rules  []struct {
			Name         string `json:"name"`
			Total        uint64 `json:"total"`
			Contributors []struct {
				Keys  []map[string]string `json:"keys"`
				Count uint64              `json:"count"`
				Error uint64              `json:"error"`
			} `json:"contributors"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	out := topKeysAnswer{Status: r.Status, Rules: []string{}}
	for _, rule := range r.Rules {
		kind := strings.Split(rule.Name, "-")[1]
		line := kind + " " + strconv.FormatUint(rule.Total, 10) + ":"
		for _, c := range rule.Contributors {
			var keys []string
			for _, k := range c.Keys {
				for typ, v := range k {
					keys = append(keys, typ+":"+v)
				}
			}
			line += " " + strings.Join(keys, "/") + "=" + strconv.FormatUint(c.Count, 10)
			if c.Error != 0 {
				line += "±" + strconv.FormatUint(c.Error, 10)
			}
		}
		out.Rules = append(out.Rules, line)
	}
	return out, "", 200
}

// TestContributorInsightsTopKeys: with Contributor Insights on, the
// server counts the keys of the requests it serves, and the console's
// /console/api/insights reports the most accessed ones per rule, named as
// DynamoDB names its CloudWatch rules (DynamoDBContributorInsights-PKC,
// SKC, PKT, SKT; the AWS CLI's describe-contributor-insights example),
// which DynamoDB reports through CloudWatch's GetInsightRuleReport and
// dynago through the console. A skewed load through the SDK: the hot
// partition is on top, each key counted once per request that names it
// (GetItem, PutItem, a Query's partition); a Query on the global
// secondary index counts the index's partition. dynago throttles no item
// request, so the throttled keys' rules stay empty. A table without
// Contributor Insights counts nothing.
func TestContributorInsightsTopKeys(t *testing.T) {
	needsWire(t)
	p := testserver.StartProcess(t, "--in-memory")
	c := testserver.NewClient(p.URL)
	_, err := c.CreateTable(bg(), &dynamodb.CreateTableInput{
		TableName:   aws.String("Music"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("album"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("Album-index"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("album"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	createHash(t, c, "Quiet", types.ScalarAttributeTypeS)
	for _, index := range []string{"", "Album-index"} {
		in := &dynamodb.UpdateContributorInsightsInput{TableName: aws.String("Music"), ContributorInsightsAction: types.ContributorInsightsActionEnable}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		if _, err := c.UpdateContributorInsights(bg(), in); err != nil {
			t.Fatal(err)
		}
	}

	do := func(n int, f func() error) {
		t.Helper()
		for range n {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}
	}
	get := func(pk, sk string) func() error {
		return func() error {
			_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("Music"), Key: map[string]types.AttributeValue{"pk": S(pk), "sk": S(sk)}})
			return err
		}
	}
	putItem := func(pk, album string) func() error {
		return func() error {
			_, err := c.PutItem(bg(), &dynamodb.PutItemInput{TableName: aws.String("Music"), Item: map[string]types.AttributeValue{"pk": S(pk), "sk": S("a"), "album": S(album)}})
			return err
		}
	}
	query := func(index, attr, v string) func() error {
		return func() error {
			in := &dynamodb.QueryInput{TableName: aws.String("Music"), KeyConditionExpression: aws.String("#k = :v"),
				ExpressionAttributeNames: map[string]string{"#k": attr}, ExpressionAttributeValues: map[string]types.AttributeValue{":v": S(v)}}
			if index != "" {
				in.IndexName = aws.String(index)
			}
			_, err := c.Query(bg(), in)
			return err
		}
	}
	do(30, get("hot", "a"))
	do(10, get("hot", "b"))
	do(4, query("", "pk", "hot"))
	do(15, putItem("warm", "A"))
	for i := range 3 {
		do(1, putItem("cold-"+strconv.Itoa(i), "B"))
	}
	do(6, query("Album-index", "album", "A"))
	do(2, query("Album-index", "album", "B"))
	do(5, func() error {
		_, err := c.GetItem(bg(), &dynamodb.GetItemInput{TableName: aws.String("Quiet"), Key: map[string]types.AttributeValue{"pk": S("x")}})
		return err
	})

	for _, tc := range []struct {
		name, table, index string
		want               topKeysAnswer
		status             int
		body               string
	}{
		{name: "table", table: "Music", want: topKeysAnswer{Status: "ENABLED", Rules: []string{
			"PKC 62: S:hot=44 S:warm=15 S:cold-0=1 S:cold-1=1 S:cold-2=1",
			"SKC 58: S:hot/S:a=30 S:warm/S:a=15 S:hot/S:b=10 S:cold-0/S:a=1 S:cold-1/S:a=1 S:cold-2/S:a=1",
			"PKT 0:",
			"SKT 0:",
		}}},
		{name: "index", table: "Music", index: "Album-index", want: topKeysAnswer{Status: "ENABLED", Rules: []string{
			"PKC 8: S:A=6 S:B=2",
			"PKT 0:",
		}}},
		{name: "disabled", table: "Quiet", want: topKeysAnswer{Status: "DISABLED", Rules: []string{}}},
		// A missing table or index: DescribeContributorInsights' errors
		// (the ack-api-quirks lab, DDB-TABLE-446).
		{name: "missing table", table: "Nope", status: 400,
			body: `{"__type":"ResourceNotFoundException","message":"Requested resource not found: Table: Nope not found"}`},
		{name: "missing index", table: "Music", index: "nope-index", status: 400,
			body: `{"__type":"ResourceNotFoundException","message":"Requested resource not found: Index: nope-index not found for table: Music"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, body, status := readTopKeys(t, p.URL, tc.table, tc.index)
			if tc.status != 0 {
				if status != tc.status {
					t.Fatalf("status %d, want %d: %s", status, tc.status, body)
				}
				jsonEqual(t, []byte(body), tc.body)
				return
			}
			if status != 200 {
				t.Fatalf("status %d: %s", status, body)
			}
			deepEqual(t, tc.name, got, tc.want)
		})
	}
}
