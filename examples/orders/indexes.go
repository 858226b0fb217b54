package main

import (
	"context"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The index-based forms of scenario S2, on their own table so that the
// bills of run stay those of an index-free table:
//
//   - A3 an order by its id, through the GSI OrderById;
//   - A4-A6 a user's orders by the composite sort key OrderStatusDate
//     ("SHIPPED#2023-01-15"): begins_with, < and BETWEEN, since ISO dates
//     order as strings. Once through the LSI ByStatusDate (created with
//     the table, same partition key, KEYS_ONLY) and once through the GSI
//     UserStatusDate (keyed UserId / OrderStatusDate, projecting all);
//   - the sparse GSI PlacedOrders on PlacedId, an attribute only PLACED
//     orders carry: it holds those orders alone, and shipping an order
//     (REMOVE PlacedId) takes it out.
//
// Reading the KEYS_ONLY LSI with Select ALL_ATTRIBUTES fetches every
// order from the table, and the bill shows it.

const indexedTable = "UsersAndOrdersIndexed"

// IndexResult holds what runIndexes measured, for the test.
type IndexResult struct {
	ByID                       string // the order A3 found
	LSI, GSI                   map[string]int
	Placed, PlacedAfterShip    int
	FetchTable, FetchIndex     float64 // the LSI fetch's bill: table part, index part
	KeysOnlyTable, KeysOnlyIdx float64 // the same query without the fetch
}

// orderDate returns the date of order i of a user: one a day from
// 2023-01-01, two months of them at most.
func orderDate(i int) string { return fmt.Sprintf("2023-%02d-%02d", 1+i/28, 1+i%28) }

func runIndexes(ctx context.Context, c *dynamodb.Client, out io.Writer, users, orders int) (*IndexResult, error) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(h, r string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}}
		if r != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
		}
		return k
	}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(indexedTable),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("PK"), def("SK"), def("OrderStatusDate"), def("OrderId"), def("UserId"), def("PlacedId")},
		KeySchema:            key("PK", "SK"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: aws.String("ByStatusDate"), KeySchema: key("PK", "OrderStatusDate"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("OrderById"), KeySchema: key("OrderId", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("UserStatusDate"), KeySchema: key("UserId", "OrderStatusDate"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			{IndexName: aws.String("PlacedOrders"), KeySchema: key("PlacedId", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
	})
	if err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(indexedTable)})
	for u := range users {
		user := fmt.Sprintf("user%03d", u)
		for o := range orders {
			id := fmt.Sprintf("%s-%04d", user, o)
			st := statusOf(u, o)
			it := map[string]types.AttributeValue{
				"PK": s("USER#" + user), "SK": s("ORDER#" + id), "UserId": s(user), "OrderId": s(id),
				"Status": s(st), "OrderStatusDate": s(st + "#" + orderDate(o)), "Amount": &types.AttributeValueMemberN{Value: fmt.Sprint(10 + o)},
			}
			if st == "PLACED" {
				it["PlacedId"] = s(id)
			}
			if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(indexedTable), Item: it}); err != nil {
				return nil, err
			}
		}
	}
	res := &IndexResult{LSI: map[string]int{}, GSI: map[string]int{}}

	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String("OrderById"),
		KeyConditionExpression: aws.String("OrderId = :id"), ExpressionAttributeValues: map[string]types.AttributeValue{":id": s("user001-0007")}})
	if err != nil {
		return nil, fmt.Errorf("A3: %w", err)
	}
	if len(q.Items) == 1 {
		res.ByID = q.Items[0]["SK"].(*types.AttributeValueMemberS).Value
	}
	fmt.Fprintf(out, "A3 order user001-0007 by id: %s\n", res.ByID)

	conds := []struct{ name, cond, a, b string }{
		{"shipped", "begins_with(OrderStatusDate, :a)", "SHIPPED#", ""},
		{"sorting before SHIPPED#2023-02-01", "OrderStatusDate < :a", "SHIPPED#2023-02-01", ""},
		{"shipped 10-20 January", "OrderStatusDate BETWEEN :a AND :b", "SHIPPED#2023-01-10", "SHIPPED#2023-01-20"},
	}
	for _, cd := range conds {
		for _, via := range []struct {
			index, hashName, hash string
			into                  map[string]int
		}{{"ByStatusDate", "PK", "USER#user000", res.LSI}, {"UserStatusDate", "UserId", "user000", res.GSI}} {
			vals := map[string]types.AttributeValue{":h": s(via.hash), ":a": s(cd.a)}
			if cd.b != "" {
				vals[":b"] = s(cd.b)
			}
			q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String(via.index),
				KeyConditionExpression: aws.String(via.hashName + " = :h AND " + cd.cond), ExpressionAttributeValues: vals})
			if err != nil {
				return nil, fmt.Errorf("%s via %s: %w", cd.name, via.index, err)
			}
			via.into[cd.name] = int(q.Count)
		}
		fmt.Fprintf(out, "A4-A6 user000 %s: %d through the LSI, %d through the GSI\n", cd.name, res.LSI[cd.name], res.GSI[cd.name])
	}

	bill := func(sel types.Select) (table, index float64, err error) {
		q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String("ByStatusDate"),
			KeyConditionExpression:    aws.String("PK = :h AND begins_with(OrderStatusDate, :a)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":h": s("USER#user000"), ":a": s("SHIPPED#")},
			Select:                    sel, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil {
			return 0, 0, err
		}
		cc := q.ConsumedCapacity
		return *cc.Table.CapacityUnits, *cc.LocalSecondaryIndexes["ByStatusDate"].CapacityUnits, nil
	}
	if res.FetchTable, res.FetchIndex, err = bill(types.SelectAllAttributes); err != nil {
		return nil, err
	}
	if res.KeysOnlyTable, res.KeysOnlyIdx, err = bill(types.SelectAllProjectedAttributes); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "LSI read of user000's shipped orders: %.1f units on the index; with ALL_ATTRIBUTES also %.1f units of table fetches\n", res.KeysOnlyIdx, res.FetchTable)

	countPlaced := func() (int, error) {
		n := 0
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(indexedTable), IndexName: aws.String("PlacedOrders")})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return 0, err
			}
			n += int(page.Count)
		}
		return n, nil
	}
	if res.Placed, err = countPlaced(); err != nil {
		return nil, err
	}
	// Ship one placed order: it leaves the sparse index.
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(indexedTable),
		Key:                       map[string]types.AttributeValue{"PK": s("USER#user000"), "SK": s("ORDER#user000-0009")},
		UpdateExpression:          aws.String("SET #s = :s, OrderStatusDate = :sd REMOVE PlacedId"),
		ExpressionAttributeNames:  map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s("SHIPPED"), ":sd": s("SHIPPED#" + orderDate(9))}})
	if err != nil {
		return nil, err
	}
	if res.PlacedAfterShip, err = countPlaced(); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "sparse index PlacedOrders: %d placed orders; %d after shipping one\n", res.Placed, res.PlacedAfterShip)
	return res, nil
}
