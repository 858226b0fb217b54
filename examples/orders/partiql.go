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

// The access patterns of scenario S2 as PartiQL statements
// (ExecuteStatement), each beside its expression form. A statement runs
// as the operation it stands for: an equality on the partition key makes
// it a Query, the rest of the WHERE becomes the key condition's sort key
// part and the filter, and without such an equality it is a Scan. So each
// returns the same items and bills the same capacity as the Query or Scan
// written by hand, which runPartiQL measures and the test checks.

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

// statement runs a statement to its last page (limit per page, 0 for
// none), summing its bill.
func statement(ctx context.Context, c *dynamodb.Client, chk *PartiQLCheck, limit int32, params ...string) error {
	in := &dynamodb.ExecuteStatementInput{Statement: aws.String(chk.Statement), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	for _, p := range params {
		in.Parameters = append(in.Parameters, &types.AttributeValueMemberS{Value: p})
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
		if out.NextToken == nil {
			return nil
		}
		in.NextToken = out.NextToken
	}
}

// queryAll runs a Query to its last page, summing its bill, as the
// expression form of chk.
func queryAll(ctx context.Context, c *dynamodb.Client, chk *PartiQLCheck, in *dynamodb.QueryInput) error {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	for {
		out, err := c.Query(ctx, in)
		if err != nil {
			return fmt.Errorf("%s (expression): %w", chk.Name, err)
		}
		chk.ExprPages++
		chk.ExprItems = append(chk.ExprItems, out.Items...)
		chk.ExprUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// runPartiQL sets up both tables of the scenario, runs each access
// pattern as a statement and as an expression request, prints the two
// bills, and deletes the tables.
func runPartiQL(ctx context.Context, c *dynamodb.Client, out io.Writer, users, orders int) ([]*PartiQLCheck, error) {
	if err := setUp(ctx, c, users, orders); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	if err := setUpIndexed(ctx, c, min(users, 5), orders); err != nil {
		return nil, err
	}
	defer c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(indexedTable)})
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var checks []*PartiQLCheck
	check := func(name, stmt string, limit int32, params []string, expr *dynamodb.QueryInput) error {
		chk := &PartiQLCheck{Name: name, Statement: stmt}
		if err := statement(ctx, c, chk, limit, params...); err != nil {
			return err
		}
		var err error
		if expr != nil {
			err = queryAll(ctx, c, chk, expr)
		} else {
			err = scanAll(ctx, c, chk)
		}
		if err != nil {
			return err
		}
		checks = append(checks, chk)
		fmt.Fprintf(out, "%s\n  %s\n  %d items in %d pages, %.1f read units; as an expression: %d items in %d pages, %.1f read units\n",
			name, stmt, len(chk.Items), chk.Pages, chk.Units, len(chk.ExprItems), chk.ExprPages, chk.ExprUnits)
		return nil
	}
	vals := func(kv ...string) map[string]types.AttributeValue {
		m := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = s(kv[i+1])
		}
		return m
	}
	steps := []func() error{
		// A1: the profile. begins_with on the sort key is part of the key
		// condition, not a filter.
		func() error {
			return check("A1 profile", `SELECT * FROM "UsersAndOrders" WHERE PK = ? AND begins_with(SK, 'PROFILE')`, 0, []string{"USER#user000"},
				&dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :u AND begins_with(SK, :p)"),
					ExpressionAttributeValues: vals(":u", "USER#user000", ":p", "PROFILE")})
		},
		// A2: the orders, newest first, 20 a page: ORDER BY the sort key
		// DESC is ScanIndexForward false; Limit and NextToken page.
		func() error {
			return check("A2 orders newest first", `SELECT * FROM "UsersAndOrders" WHERE PK = ? AND begins_with(SK, 'ORDER#') ORDER BY SK DESC`, 20, []string{"USER#user000"},
				&dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :u AND begins_with(SK, :o)"),
					ExpressionAttributeValues: vals(":u", "USER#user000", ":o", "ORDER#"), ScanIndexForward: aws.Bool(false), Limit: aws.Int32(20)})
		},
		// A4 by filter: the condition on Status is the Query's filter, and
		// the bill counts every order read, shipped or not.
		func() error {
			return check("A4 shipped orders by filter", `SELECT * FROM "UsersAndOrders" WHERE PK = ? AND begins_with(SK, 'ORDER#') AND "Status" = 'SHIPPED'`, 0, []string{"USER#user000"},
				&dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :u AND begins_with(SK, :o)"),
					FilterExpression: aws.String("#s = :st"), ExpressionAttributeNames: map[string]string{"#s": "Status"},
					ExpressionAttributeValues: vals(":u", "USER#user000", ":o", "ORDER#", ":st", "SHIPPED")})
		},
		// A5 by filter: no partition key equality, so a Scan of the whole
		// table, 1 MB a page, some pages empty, all of it billed.
		func() error {
			return check("A5 placed orders by a filtered Scan", `SELECT * FROM "UsersAndOrders" WHERE "Status" = 'PLACED'`, 0, nil, nil)
		},
		// A3: an order by its id, through the GSI.
		func() error {
			return check("A3 order by id (GSI)", `SELECT * FROM "UsersAndOrdersIndexed"."OrderById" WHERE OrderId = ?`, 0, []string{"user001-0007"},
				&dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String("OrderById"), KeyConditionExpression: aws.String("OrderId = :id"),
					ExpressionAttributeValues: vals(":id", "user001-0007")})
		},
	}
	// A4-A6 on the composite sort key, through the LSI and the GSI.
	for _, via := range []struct{ index, hashName, hash string }{{"ByStatusDate", "PK", "USER#user000"}, {"UserStatusDate", "UserId", "user000"}} {
		for _, cd := range []struct{ name, ql, expr, a, b string }{
			{"shipped", "begins_with(OrderStatusDate, ?)", "begins_with(OrderStatusDate, :a)", "SHIPPED#", ""},
			{"before SHIPPED#2023-02-01", "OrderStatusDate < ?", "OrderStatusDate < :a", "SHIPPED#2023-02-01", ""},
			{"shipped 10-20 January", "OrderStatusDate BETWEEN ? AND ?", "OrderStatusDate BETWEEN :a AND :b", "SHIPPED#2023-01-10", "SHIPPED#2023-01-20"},
		} {
			params := []string{via.hash, cd.a}
			v := vals(":h", via.hash, ":a", cd.a)
			if cd.b != "" {
				params, v[":b"] = append(params, cd.b), s(cd.b)
			}
			steps = append(steps, func() error {
				return check(fmt.Sprintf("A4-A6 %s via %s", cd.name, via.index),
					fmt.Sprintf(`SELECT * FROM "UsersAndOrdersIndexed".%q WHERE %s = ? AND %s`, via.index, via.hashName, cd.ql), 0, params,
					&dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String(via.index),
						KeyConditionExpression: aws.String(via.hashName + " = :h AND " + cd.expr), ExpressionAttributeValues: v})
			})
		}
	}
	steps = append(steps,
		// Naming an attribute the KEYS_ONLY LSI does not hold fetches each
		// order from the table, billed as such: the statement's form of
		// Select ALL_ATTRIBUTES.
		func() error {
			return check("LSI read fetching from the table", `SELECT SK, Amount FROM "UsersAndOrdersIndexed"."ByStatusDate" WHERE PK = ? AND begins_with(OrderStatusDate, 'SHIPPED#')`, 0, []string{"USER#user000"},
				&dynamodb.QueryInput{TableName: aws.String(indexedTable), IndexName: aws.String("ByStatusDate"),
					KeyConditionExpression: aws.String("PK = :h AND begins_with(OrderStatusDate, :a)"), ProjectionExpression: aws.String("SK, Amount"),
					ExpressionAttributeValues: vals(":h", "USER#user000", ":a", "SHIPPED#")})
		},
		// The sparse index: a SELECT without a key condition scans it, and
		// it holds only the PLACED orders.
		func() error {
			chk := &PartiQLCheck{Name: "sparse index PlacedOrders", Statement: `SELECT * FROM "UsersAndOrdersIndexed"."PlacedOrders"`}
			if err := statement(ctx, c, chk, 0); err != nil {
				return err
			}
			if err := scanIndexAll(ctx, c, chk, "PlacedOrders"); err != nil {
				return err
			}
			checks = append(checks, chk)
			fmt.Fprintf(out, "%s\n  %s\n  %d placed orders, %.1f read units; as a Scan: %d, %.1f read units\n", chk.Name, chk.Statement, len(chk.Items), chk.Units, len(chk.ExprItems), chk.ExprUnits)
			return nil
		},
		// Shipping an order with an UPDATE takes it out of the sparse index.
		func() error {
			_, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
				Statement:  aws.String(`UPDATE "UsersAndOrdersIndexed" SET "Status" = 'SHIPPED' SET OrderStatusDate = ? REMOVE PlacedId WHERE PK = ? AND SK = ?`),
				Parameters: []types.AttributeValue{s("SHIPPED#" + orderDate(9)), s("USER#user000"), s("ORDER#user000-0009")}})
			if err != nil {
				return err
			}
			chk := &PartiQLCheck{Name: "sparse index after shipping one", Statement: `SELECT * FROM "UsersAndOrdersIndexed"."PlacedOrders"`}
			if err := statement(ctx, c, chk, 0); err != nil {
				return err
			}
			if err := scanIndexAll(ctx, c, chk, "PlacedOrders"); err != nil {
				return err
			}
			checks = append(checks, chk)
			fmt.Fprintf(out, "%s\n  %d placed orders\n", chk.Name, len(chk.Items))
			return nil
		},
	)
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return checks, nil
}

// scanAll is A5's expression form: the filtered Scan of the table.
func scanAll(ctx context.Context, c *dynamodb.Client, chk *PartiQLCheck) error {
	in := &dynamodb.ScanInput{TableName: aws.String(table), FilterExpression: aws.String("#s = :placed"),
		ExpressionAttributeNames:  map[string]string{"#s": "Status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":placed": &types.AttributeValueMemberS{Value: "PLACED"}},
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal}
	return scanPages(ctx, c, chk, in)
}

// scanIndexAll is the expression form of a Scan of an index.
func scanIndexAll(ctx context.Context, c *dynamodb.Client, chk *PartiQLCheck, index string) error {
	return scanPages(ctx, c, chk, &dynamodb.ScanInput{TableName: aws.String(indexedTable), IndexName: aws.String(index), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
}

func scanPages(ctx context.Context, c *dynamodb.Client, chk *PartiQLCheck, in *dynamodb.ScanInput) error {
	for {
		out, err := c.Scan(ctx, in)
		if err != nil {
			return fmt.Errorf("%s (expression): %w", chk.Name, err)
		}
		chk.ExprPages++
		chk.ExprItems = append(chk.ExprItems, out.Items...)
		chk.ExprUnits += aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// setUpIndexed creates and fills runIndexes's table, the same way.
func setUpIndexed(ctx context.Context, c *dynamodb.Client, users, orders int) error {
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
		return err
	}
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
				return err
			}
		}
	}
	return nil
}
