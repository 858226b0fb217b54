package main

import (
	"context"
	"fmt"
	"io"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The access patterns of scenario S3 as PartiQL statements
// (ExecuteStatement and BatchExecuteStatement), each beside its
// expression form. A SELECT on "ProductComments"."all" with an equality on
// the index's partition key is a Query of that index; ORDER BY GSISK DESC
// reads it newest first; Limit and NextToken page. An IN list on the
// partition key is one Query per value, one after the other, each in its
// own order: the newest-first merge of AP3 stays the client's (here, and
// in toolkit/planner, which also runs the queries in parallel). A SELECT by
// the whole key is a GetItem, and BatchExecuteStatement of such SELECTs a
// BatchGetItem, billed as one.

// PartiQLCheck is one access pattern run both ways.
type PartiQLCheck struct {
	Name, Statement  string
	Items, ExprItems []map[string]types.AttributeValue
	Units, ExprUnits float64
	Pages, ExprPages int
}

// Same reports whether both ways returned the same items, in the same
// order, for the same bill.
func (c *PartiQLCheck) Same() bool {
	return c.Units == c.ExprUnits && reflect.DeepEqual(c.Items, c.ExprItems)
}

// runPartiQL writes n comments, runs AP1-AP6 both ways, prints the two
// bills of each, and deletes the table.
func runPartiQL(ctx context.Context, c *dynamodb.Client, w io.Writer, n int) ([]*PartiQLCheck, error) {
	if err := createTable(ctx, c); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	written := comments(n)
	for _, cm := range written {
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: commentItem(cm)}); err != nil {
			return nil, err
		}
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var checks []*PartiQLCheck
	report := func(chk *PartiQLCheck) {
		checks = append(checks, chk)
		fmt.Fprintf(w, "%s\n  %s\n  %d items in %d pages, %.1f units; as an expression: %d items in %d pages, %.1f units\n",
			chk.Name, chk.Statement, len(chk.Items), chk.Pages, chk.Units, len(chk.ExprItems), chk.ExprPages, chk.ExprUnits)
	}
	// stmt runs a statement, all its pages (pages > 0: at most that many).
	stmt := func(chk *PartiQLCheck, limit int32, pages int, params ...string) error {
		in := &dynamodb.ExecuteStatementInput{Statement: aws.String(chk.Statement), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		for _, p := range params {
			in.Parameters = append(in.Parameters, s(p))
		}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		for {
			out, err := c.ExecuteStatement(ctx, in)
			if err != nil {
				return fmt.Errorf("%s: %w", chk.Statement, err)
			}
			chk.Pages++
			chk.Items = append(chk.Items, out.Items...)
			chk.Units += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			if out.NextToken == nil || chk.Pages == pages {
				return nil
			}
			in.NextToken = out.NextToken
		}
	}
	// query runs the expression form: a Query of index newest first, 20 a
	// page, all its pages (pages > 0: at most that many).
	query := func(chk *PartiQLCheck, index, attr, key string, limit int32, pages int) error {
		in := &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String(index),
			KeyConditionExpression:    aws.String(attr + " = :k"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": s(key)},
			ScanIndexForward:          aws.Bool(false), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		for {
			out, err := c.Query(ctx, in)
			if err != nil {
				return fmt.Errorf("%s (expression): %w", chk.Name, err)
			}
			chk.ExprPages++
			chk.ExprItems = append(chk.ExprItems, out.Items...)
			chk.ExprUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			if out.LastEvaluatedKey == nil || chk.ExprPages == pages {
				return nil
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	}
	one := func(name, index, attr, key string) error {
		chk := &PartiQLCheck{Name: name, Statement: fmt.Sprintf(`SELECT * FROM "ProductComments".%q WHERE %s = ? ORDER BY GSISK DESC`, index, attr)}
		if err := stmt(chk, pageSize, 1, key); err != nil {
			return err
		}
		if err := query(chk, index, attr, key, pageSize, 1); err != nil {
			return err
		}
		report(chk)
		return nil
	}
	// in reads several partition keys of an index: the statement's IN
	// list against one Query per key, in the statement's order (ORDER BY
	// the partition key first, then newest first).
	in := func(name, index, attr string, keys ...string) error {
		chk := &PartiQLCheck{Name: name, Statement: fmt.Sprintf(`SELECT * FROM "ProductComments".%q WHERE %s IN [?, ?, ?] ORDER BY %s, GSISK DESC`, index, attr, attr)}
		if len(keys) == 2 {
			chk.Statement = fmt.Sprintf(`SELECT * FROM "ProductComments".%q WHERE %s IN [?, ?] ORDER BY %s, GSISK DESC`, index, attr, attr)
		}
		if err := stmt(chk, 0, 0, keys...); err != nil {
			return err
		}
		for _, k := range keys {
			if err := query(chk, index, attr, k, 0, 0); err != nil {
				return err
			}
		}
		report(chk)
		return nil
	}
	steps := []func() error{
		func() error { return one("AP1 newest 20 comments", "all", "GSI4PK", product) },
		func() error { return one("AP2 newest 20 in en", "byLang", "GSI2PK", product+"/en") },
		func() error {
			return in("AP3a en rated 2, 3 or 5, partition by partition", "byLangAndRating", "GSI1PK", product+"/en/2", product+"/en/3", product+"/en/5")
		},
		func() error { return one("AP3b newest 20 rated 2", "byRating", "GSI3PK", product+"/2") },
		func() error {
			return in("AP3c rated 3 or 5, partition by partition", "byRating", "GSI3PK", product+"/3", product+"/5")
		},
		// AP6: every comment of the product, 20 a page, NextToken against
		// LastEvaluatedKey.
		func() error {
			chk := &PartiQLCheck{Name: "AP6 all comments, 20 a page", Statement: `SELECT * FROM "ProductComments"."all" WHERE GSI4PK = ? ORDER BY GSISK DESC`}
			if err := stmt(chk, pageSize, 0, product); err != nil {
				return err
			}
			if err := query(chk, "all", "GSI4PK", product, pageSize, 0); err != nil {
				return err
			}
			report(chk)
			return nil
		},
		// The bill of the 20 newest comments read by key: 20 SELECTs by
		// the whole key in a BatchExecuteStatement against a BatchGetItem.
		func() error {
			chk := &PartiQLCheck{Name: "20 comments by key", Statement: `SELECT * FROM "ProductComments" WHERE PK = ? AND SK = ?  (x20, BatchExecuteStatement)`}
			var sts []types.BatchStatementRequest
			var keys []map[string]types.AttributeValue
			for _, cm := range written[len(written)-pageSize:] {
				k := "COMMENT#" + cm.ID
				sts = append(sts, types.BatchStatementRequest{Statement: aws.String(`SELECT * FROM "ProductComments" WHERE PK = ? AND SK = ?`),
					Parameters: []types.AttributeValue{s(k), s(k)}})
				keys = append(keys, key(cm.ID))
			}
			out, err := c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: sts, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return err
			}
			for _, r := range out.Responses {
				if r.Error != nil {
					return fmt.Errorf("batch: %s", aws.ToString(r.Error.Message))
				}
				chk.Items = append(chk.Items, r.Item)
			}
			chk.Units, chk.Pages = aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits), 1
			bg, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys}},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return err
			}
			// BatchGetItem answers in no particular order: put its items in
			// the order asked.
			byID := map[string]map[string]types.AttributeValue{}
			for _, it := range bg.Responses[table] {
				byID[it["id"].(*types.AttributeValueMemberS).Value] = it
			}
			for _, cm := range written[len(written)-pageSize:] {
				chk.ExprItems = append(chk.ExprItems, byID[cm.ID])
			}
			chk.ExprUnits, chk.ExprPages = aws.ToFloat64(bg.ConsumedCapacity[0].CapacityUnits), 1
			report(chk)
			return nil
		},
		// AP4 a comment by its key (GetItem), then AP5 deletes it.
		func() error {
			victim, other := written[0].ID, written[1].ID
			chk := &PartiQLCheck{Name: "AP4 a comment by key", Statement: `SELECT * FROM "ProductComments" WHERE PK = ? AND SK = ?`}
			if err := stmt(chk, 0, 0, "COMMENT#"+victim, "COMMENT#"+victim); err != nil {
				return err
			}
			get, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key(victim), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return err
			}
			chk.ExprItems, chk.ExprUnits, chk.ExprPages = append(chk.ExprItems, get.Item), aws.ToFloat64(get.ConsumedCapacity.CapacityUnits), 1
			report(chk)
			// AP5: a DELETE, against a DeleteItem of a comment of the same
			// size: the table and each of the four indexes bill a unit.
			del := &PartiQLCheck{Name: "AP5 delete a comment", Statement: `DELETE FROM "ProductComments" WHERE PK = ? AND SK = ?`}
			if err := stmt(del, 0, 0, "COMMENT#"+victim, "COMMENT#"+victim); err != nil {
				return err
			}
			d, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key(other), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if err != nil {
				return err
			}
			del.ExprUnits, del.ExprPages = aws.ToFloat64(d.ConsumedCapacity.CapacityUnits), 1
			if del.Items == nil {
				del.Items = del.ExprItems
			}
			report(del)
			return nil
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return checks, nil
}
