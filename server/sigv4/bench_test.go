package sigv4

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkVerify verifies one header-signed request with a 1 KB body, as
// the SDK signs it, with the signing key cached after the first call.
func BenchmarkVerify(b *testing.B) {
	body := `{"TableName":"items","Item":{"pk":{"S":"k"},"v":{"S":"` + strings.Repeat("x", 1024-58) + `"}}}`
	r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
	r.Header.Set("User-Agent", "aws-sdk-go-v2/1.0 os/linux lang/go#1.26 md/GOOS#linux")
	s := defaultSigning()
	s.payloadHash = hashHex(body)
	sdkSign(b, r, s)
	v := testVerifier(b)
	raw := []byte(body)
	if len(raw) != 1024 {
		b.Fatalf("body of %d bytes", len(raw))
	}
	if _, err := v.Verify(r, raw, testNow); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(r, raw, testNow); err != nil {
			b.Fatal(err)
		}
	}
}
