package retrofit

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/testserver"
)

// TestRetrofitTemplateNamesKeyAndRepeats retrofits with templates that
// read a key attribute and one attribute twice. The Scan's projection
// names each attribute once: a projection naming one path twice is
// refused by DynamoDB ("Two document paths overlap"), as by dynago.
func TestRetrofitTemplateNamesKeyAndRepeats(t *testing.T) {
	srv := testserver.Start(t)
	auditTable(t, srv.Client, 40)
	for _, tc := range []struct{ attr, template string }{
		{"byId", "{id}#{action}"},
		{"twice", "{action}-{action}/{resourceId}"},
		{"keyTwice", "{id}:{id}"},
	} {
		opts := Options{Table: "ResourceAccessAudit", Attribute: tc.attr, Template: mustTemplate(tc.template), Segments: 2, PageSize: 7}
		p, err := Run(context.Background(), srv.Client, opts)
		if err != nil || p.Scanned != 40 || p.Written != 40 {
			t.Fatalf("template %q: %+v, %v", tc.template, p, err)
		}
		out, err := srv.Client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("ResourceAccessAudit"),
			Key: map[string]types.AttributeValue{"id": s("evt-00003")}})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := opts.Template.Render(out.Item)
		if got, _ := out.Item[tc.attr].(*types.AttributeValueMemberS); got == nil || got.Value != want {
			t.Errorf("template %q: item evt-00003 has %v, want %q", tc.template, out.Item[tc.attr], want)
		}
	}
}

func TestProjectionNamesEachAttributeOnce(t *testing.T) {
	names, proj := projection("d", []string{"pk", "sk"}, []string{"pk", "a", "a", "sk", "b"})
	if proj != "#t, #a0, #a1, #a2, #a3" || len(names) != 5 || names["#a2"] != "a" || names["#a3"] != "b" {
		t.Errorf("projection = %v, %q", names, proj)
	}
}
