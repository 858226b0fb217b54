package pgtest

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestSchemaName(t *testing.T) {
	a, b := schemaName("TestX/sub case #1"), schemaName("TestX/sub case #1")
	if a == b {
		t.Errorf("two schemas named %s", a)
	}
	if !strings.HasPrefix(a, "t_testx_sub_case__1_") {
		t.Errorf("name %s", a)
	}
	if n := schemaName(strings.Repeat("LongTestName", 20)); len(n) > 63 {
		t.Errorf("%d bytes: %s", len(n), n)
	}
}

// TestSchemaDropped: a test's schema is gone once the test ends.
func TestSchemaDropped(t *testing.T) {
	u := URL(t)
	var name string
	t.Run("inner", func(t *testing.T) {
		var url string
		url, name = Schema(t)
		conn, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()+"; CREATE TABLE "+pgx.Identifier{name, "x"}.Sanitize()+" (a int)"); err != nil {
			t.Fatal(err)
		}
	})
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("schema %s survived its test", name)
	}
}
