package sigv4

import (
	"net/http"
	"net/http/httptest"
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

// FuzzVerify runs whole verifications of requests with an arbitrary
// Authorization header, query string, X-Amz-Date and body. None may
// panic, and none but the one signed request may verify. Seeds are in
// testdata/fuzz/FuzzVerify.
func FuzzVerify(f *testing.F) {
	good := signedTB(f)
	goodAuth, goodDate := good.Header.Get("Authorization"), good.Header.Get("X-Amz-Date")
	f.Add(goodAuth, "", goodDate, testBody)
	f.Add("", "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20261124%2Fus-east-1%2Fdynamodb%2Faws4_request&X-Amz-Date=20261124T120000Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host&X-Amz-Signature=00", "", "")
	f.Add("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261124/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00", "a=%zz&&=&b", "20261124T120000Z", "{}")
	request := func(auth, rawQuery, date string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/", nil)
		r.URL.RawQuery = rawQuery
		r.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		r.Header.Set("Content-Type", "application/x-amz-json-1.0")
		r.ContentLength = int64(len(testBody))
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		if date != "" {
			r.Header.Set("X-Amz-Date", date)
		}
		return r
	}
	v := testVerifier(f)
	// The one signed request verifies, so the fuzzer starts next to it.
	if _, err := v.Verify(request(goodAuth, "", goodDate), []byte(testBody), testNow); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, auth, rawQuery, date, body string) {
		id, err := v.Verify(request(auth, rawQuery, date), []byte(body), testNow)
		if err == nil && (auth != goodAuth || body != testBody || rawQuery != "" || date != goodDate) {
			t.Fatalf("verified a request not signed so: %q %q %q %q as %+v", auth, rawQuery, date, body, id)
		}
	})
}
