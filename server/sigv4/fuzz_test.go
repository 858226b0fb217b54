package sigv4

import (
	"strings"
	"testing"
)

// FuzzParseAuthorization feeds the Authorization header parser arbitrary
// headers. It must not panic; what it accepts has a non-empty Credential
// and Signature and an algorithm beginning "AWS4-", and what it refuses is
// one of the two exceptions a malformed header gets. Seeds are in
// testdata/fuzz/FuzzParseAuthorization.
func FuzzParseAuthorization(f *testing.F) {
	f.Add("AWS4-HMAC-SHA256 Credential=AKID/20261124/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0123", true)
	f.Add("AWS4-", false)
	f.Add("AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders", true)
	f.Fuzz(func(t *testing.T, header string, hasDate bool) {
		a, err := parseAuthorization(header, hasDate)
		if err != nil {
			if a != nil {
				t.Fatal("both a result and an error")
			}
			switch err.Code {
			case CodeMissingAuthenticationToken, CodeIncompleteSignature:
			default:
				t.Fatalf("unexpected code %s", err.Code)
			}
			return
		}
		if a.credential == "" || a.signature == "" || !strings.HasPrefix(a.algorithm, "AWS4-") || !hasDate {
			t.Fatalf("accepted %q as %+v", header, a)
		}
		// Whatever the scope, parsing it and checking it must not panic.
		if sc, err := parseScope(a.credential); err == nil {
			sc.check("20261124T120000Z")
		}
	})
}
