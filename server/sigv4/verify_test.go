package sigv4

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/dynago/dynago/dynamo"
)

// Sources of DynamoDB's answers, cited by the cases below:
//
//   - [dynalite-conn]: dynalite's test/connection.js, run against DynamoDB
//     (https://github.com/architect/dynalite): the bodies of
//     MissingAuthenticationTokenException ("Request is missing
//     Authentication Token", also for a header "AWS4") and of
//     IncompleteSignatureException for the header "AWS4-", all HTTP 400
//     with __type com.amazon.coral.service#..., and that auth is checked
//     after the operation is resolved.
//   - [dynalite-index]: the comments of dynalite's index.js recording, in
//     order, DynamoDB's answers to each later check: the missing
//     equal-sign message, the ISO-8601 date message, "Signature expired:
//     20130301T000000Z is now earlier than 20130609T094515Z
//     (20130609T100015Z - 15 min.)", the 'Host' SignedHeader message, the
//     algorithm message, the five-element Credential message, the scope
//     messages (region, service, terminator, date), UnrecognizedClient "The
//     security token included in the request is invalid." for an unknown
//     key and "... is invalid" without a period for a bad
//     X-Amz-Security-Token.
//   - [sdk-js-254]: https://github.com/aws/aws-sdk-js/issues/254, DynamoDB
//     answering "Signature expired: 20140325T143453Z is now earlier than
//     20140325T143751Z (20140325T145251Z - 15 min.)" with statusCode 400.
//   - [sdk-js-2565]: https://github.com/aws/aws-sdk-js/issues/2565, DynamoDB
//     answering "Signature not yet current: 20190305T002809Z is still
//     later than 20190304T214315Z (20190304T212815Z + 15 min.)".
//   - [php-1]: https://github.com/ttsuruoka/php-simple-amazon-dynamodb/issues/1,
//     DynamoDB's InvalidSignatureException with the 178-character message
//     "The request signature we calculated does not match ...".
//   - [scylla-auth]: ScyllaDB's test/alternator/test_authorization.py, run
//     against DynamoDB too: the time window is checked before the
//     credential scope, commas alone may separate the parts, and an
//     unknown key gets UnrecognizedClientException.
//   - [dynalite-conn2]: the later dynalite test/connection.js (TypeScript),
//     whose bodies are checked with DynamoDB's x-amz-crc32: "Found both
//     'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP
//     header.", the "AWS query-string parameters must include '...'.
//     Re-examine the query-string parameters." message of presigned
//     requests, which headers and queries count as no token at all, and
//     the single missing-part message for "AWS4- Signature=b Credential=a".
//   - [none]: no public record found; dynago's own wording, in DynamoDB's
//     style: an X-Amz-Expires out of range, and the expiry of a presigned
//     request (said like the header's, with its own window).

var testNow = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

const (
	testKey    = "AKIDEXAMPLE"
	testSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	tempKey    = "ASIATEMP"
	tempSecret = "tempsecret"
	tempToken  = "FQoGZXIvYXdzEXAMPLETOKEN=="
	testBody   = `{"TableName":"t"}`
)

func testVerifier(t testing.TB) *Verifier {
	t.Helper()
	c, err := ParseCredentials(strings.NewReader(
		testKey + " " + testSecret + " 123456789012\n" +
			tempKey + " " + tempSecret + " token=" + tempToken + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return NewVerifier(c)
}

func hashHex(b string) string {
	s := sha256.Sum256([]byte(b))
	return hex.EncodeToString(s[:])
}

// newRequest is an unsigned DynamoDB request as a server receives it.
func newRequest(target string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/", strings.NewReader(testBody))
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("X-Amz-Target", target)
	return r
}

type signing struct {
	key, secret, token string
	service, region    string
	at                 time.Time
	payloadHash        string
}

func defaultSigning() signing {
	return signing{key: testKey, secret: testSecret, service: "dynamodb", region: "us-east-1", at: testNow, payloadHash: hashHex(testBody)}
}

// sdkSign signs r with the AWS SDK's signer.
func sdkSign(t testing.TB, r *http.Request, s signing) *http.Request {
	t.Helper()
	creds := aws.Credentials{AccessKeyID: s.key, SecretAccessKey: s.secret, SessionToken: s.token}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, r, s.payloadHash, s.service, s.region, s.at); err != nil {
		t.Fatal(err)
	}
	return r
}

// sdkPresign presigns r with the SDK's signer and returns the request a
// client would send to the presigned URL.
func sdkPresign(t testing.TB, r *http.Request, s signing) *http.Request {
	t.Helper()
	creds := aws.Credentials{AccessKeyID: s.key, SecretAccessKey: s.secret, SessionToken: s.token}
	u, hdr, err := v4.NewSigner().PresignHTTP(context.Background(), creds, r, s.payloadHash, s.service, s.region, s.at)
	if err != nil {
		t.Fatal(err)
	}
	out := httptest.NewRequest(r.Method, u, strings.NewReader(testBody))
	for k, vs := range hdr {
		out.Header[k] = vs
	}
	return out
}

// signed is a ListTables request signed by the SDK at testNow.
func signed(t *testing.T) *http.Request { return signedTB(t) }

func signedTB(t testing.TB) *http.Request {
	return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), defaultSigning())
}

func setAuth(r *http.Request, h string) *http.Request {
	r.Header.Set("Authorization", h)
	return r
}

// handSign signs r by a second, plain reading of the SigV4 description,
// sharing no code with the verifier: for requests the SDK cannot make
// (a Date header instead of X-Amz-Date, unsorted SignedHeaders).
func handSign(r *http.Request, key, secret, amzDate, body string, signedHeaders []string) {
	var canon strings.Builder
	canon.WriteString(r.Method + "\n/\n\n")
	sorted := append([]string(nil), signedHeaders...)
	sort.Strings(sorted)
	for _, h := range sorted {
		v := r.Header.Get(h)
		if h == "host" {
			v = r.Host
		}
		canon.WriteString(h + ":" + strings.TrimSpace(v) + "\n")
	}
	canon.WriteString("\n" + strings.Join(sorted, ";") + "\n" + hashHex(body))
	scope := amzDate[:8] + "/us-east-1/dynamodb/aws4_request"
	sts := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hashHex(canon.String())
	mac := func(k []byte, s string) []byte { m := hmac.New(sha256.New, k); m.Write([]byte(s)); return m.Sum(nil) }
	k := mac(mac(mac(mac([]byte("AWS4"+secret), amzDate[:8]), "us-east-1"), "dynamodb"), "aws4_request")
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+key+"/"+scope+", SignedHeaders="+
		strings.Join(signedHeaders, ";")+", Signature="+hex.EncodeToString(mac(k, sts)))
}

func TestVerify(t *testing.T) {
	const (
		invalidSig   = "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
		unknownKey   = "The security token included in the request is invalid."
		badToken     = "The security token included in the request is invalid"
		missingToken = "Request is missing Authentication Token"
	)
	tests := []struct {
		name string
		req  func(t *testing.T) *http.Request
		body string    // what the server read; testBody when empty
		now  time.Time // testNow when zero
		code string    // "" for a request that verifies
		msg  string    // the exact message
		id   *Identity // the identity of a request that verifies, when checked
	}{
		{name: "valid", req: signed,
			id: &Identity{AccessKeyID: testKey, Region: "us-east-1", AccountID: "123456789012"}},
		{name: "valid in another region", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.region = "eu-west-3"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, id: &Identity{AccessKeyID: testKey, Region: "eu-west-3", AccountID: "123456789012"}},
		{name: "streams target signed for dynamodb", req: func(t *testing.T) *http.Request {
			// The Streams SDK signs with the name "dynamodb"
			// (service/dynamodbstreams/auth.go sets it).
			return sdkSign(t, newRequest("DynamoDBStreams_20120810.ListStreams"), defaultSigning())
		}},
		// [php-1], [dynalite-index]
		{name: "wrong secret", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.secret = "not-the-secret"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeInvalidSignature, msg: invalidSig},
		// [dynalite-index], [scylla-auth]
		{name: "unknown key", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key = "AKIDUNKNOWN"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeUnrecognizedClient, msg: unknownKey},
		// [dynalite-conn]
		{name: "no Authorization", req: func(t *testing.T) *http.Request {
			return newRequest("DynamoDB_20120810.ListTables")
		}, code: CodeMissingAuthenticationToken, msg: missingToken},
		// [dynalite-conn]: "AWS4" is no token either.
		{name: "Authorization AWS4", req: func(t *testing.T) *http.Request {
			return setAuth(newRequest("DynamoDB_20120810.ListTables"), "AWS4")
		}, code: CodeMissingAuthenticationToken, msg: missingToken},
		// [dynalite-conn], exact body.
		{name: "Authorization AWS4-", req: func(t *testing.T) *http.Request {
			return setAuth(newRequest("DynamoDB_20120810.ListTables"), "AWS4-")
		}, code: CodeIncompleteSignature, msg: "Authorization header requires 'Credential' parameter. " +
			"Authorization header requires 'Signature' parameter. " +
			"Authorization header requires 'SignedHeaders' parameter. " +
			"Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-"},
		// [dynalite-conn2]: a misspelt X-Amz-Algorithm is no query signature,
		// and a header not beginning "AWS4-" no header signature.
		{name: "header X, query X-Amz-Algorith", req: func(t *testing.T) *http.Request {
			r := setAuth(newRequest("DynamoDB_20120810.ListTables"), "X")
			r.URL.RawQuery = "X-Amz-Algorith"
			return r
		}, code: CodeMissingAuthenticationToken, msg: missingToken},
		// [dynalite-conn2]
		{name: "every query parameter but X-Amz-Algorithm", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Credential=a&X-Amz-Signature=b&X-Amz-SignedHeaders=c&X-Amz-Date=d"
			return r
		}, code: CodeMissingAuthenticationToken, msg: missingToken},
		// [dynalite-conn2]: an empty X-Amz-Algorithm counts for "both".
		{name: "header X, empty X-Amz-Algorithm", req: func(t *testing.T) *http.Request {
			r := setAuth(newRequest("DynamoDB_20120810.ListTables"), "X")
			r.URL.RawQuery = "X-Amz-Algorithm"
			return r
		}, code: CodeInvalidSignature, msg: "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."},
		// [dynalite-conn2]: a Date of "a" is enough here; its form is
		// checked later.
		{name: "AWS4- Signature=b Credential=a", req: func(t *testing.T) *http.Request {
			r := setAuth(newRequest("DynamoDB_20120810.ListTables"), "AWS4- Signature=b Credential=a")
			r.Header.Set("Date", "a")
			return r
		}, code: CodeIncompleteSignature, msg: "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b Credential=a"},
		{name: "AWS4- Signature=b,Credential=a", req: func(t *testing.T) *http.Request {
			r := setAuth(newRequest("DynamoDB_20120810.ListTables"), "AWS4- Signature=b,Credential=a")
			r.Header.Set("Date", "a")
			return r
		}, code: CodeIncompleteSignature, msg: "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b,Credential=a"},
		{name: "AWS4- Signature=b, Credential=a", req: func(t *testing.T) *http.Request {
			r := setAuth(newRequest("DynamoDB_20120810.ListTables"), "AWS4- Signature=b, Credential=a")
			r.Header.Set("Date", "a")
			return r
		}, code: CodeIncompleteSignature, msg: "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b, Credential=a"},
		// [dynalite-conn2]
		{name: "empty X-Amz-Algorithm query", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Algorithm"
			return r
		}, code: CodeIncompleteSignature, msg: "AWS query-string parameters must include 'X-Amz-Algorithm'. " +
			"AWS query-string parameters must include 'X-Amz-Credential'. " +
			"AWS query-string parameters must include 'X-Amz-Signature'. " +
			"AWS query-string parameters must include 'X-Amz-SignedHeaders'. " +
			"AWS query-string parameters must include 'X-Amz-Date'. " +
			"Re-examine the query-string parameters."},
		// [dynalite-conn2]: presence first, the values later.
		{name: "query without X-Amz-SignedHeaders", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Algorithm=a&X-Amz-Credential=b&X-Amz-Signature=c&X-Amz-Date=d"
			return r
		}, code: CodeIncompleteSignature, msg: "AWS query-string parameters must include 'X-Amz-SignedHeaders'. Re-examine the query-string parameters."},
		// [dynalite-index]: one sentence per missing part.
		{name: "no Signature", req: func(t *testing.T) *http.Request {
			r := signed(t)
			a := r.Header.Get("Authorization")
			return setAuth(r, a[:strings.Index(a, ", Signature=")])
		}, code: CodeIncompleteSignature, msg: "Authorization header requires 'Signature' parameter. Authorization=" +
			"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261124/us-east-1/dynamodb/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-target"},
		// [dynalite-index], exact text.
		{name: "part without equal-sign", req: func(t *testing.T) *http.Request {
			return setAuth(signed(t), "AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders")
		}, code: CodeIncompleteSignature, msg: "'Credential' not a valid key=value pair (missing equal-sign) in Authorization header: 'AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders'."},
		// [dynalite-index], exact text.
		{name: "date not ISO-8601", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Header.Set("X-Amz-Date", "201")
			return r
		}, code: CodeIncompleteSignature, msg: "Date must be in ISO-8601 'basic format'. Got '201'. See http://en.wikipedia.org/wiki/ISO_8601"},
		{name: "date with a fraction of a second", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Header.Set("X-Amz-Date", "20261124T120000.5Z")
			return r
		}, code: CodeIncompleteSignature, msg: "Date must be in ISO-8601 'basic format'. Got '20261124T120000.5Z'. See http://en.wikipedia.org/wiki/ISO_8601"},
		// [dynalite-index], [sdk-js-254]: 15 minutes, dates in basic form.
		{name: "expired", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.at = testNow.Add(-15*time.Minute - time.Second)
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeInvalidSignature, msg: "Signature expired: 20261124T114459Z is now earlier than 20261124T114500Z (20261124T120000Z - 15 min.)"},
		{name: "15 minutes old", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.at = testNow.Add(-15 * time.Minute)
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}},
		{name: "15 minutes ahead", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.at = testNow.Add(15 * time.Minute)
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}},
		// [sdk-js-2565], [scylla-auth]
		{name: "far future", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.at = testNow.Add(15*time.Minute + time.Second)
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeInvalidSignature, msg: "Signature not yet current: 20261124T121501Z is still later than 20261124T121500Z (20261124T120000Z + 15 min.)"},
		// [scylla-auth]: the window before the scope.
		{name: "expired with a broken scope", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Date", "20170101T010101Z")
			return setAuth(r, "AWS4-HMAC-SHA256 Credential=cassandra/2/3/4/aws4_request SignedHeaders=x-amz-date;host Signature=123")
		}, code: CodeInvalidSignature, msg: "Signature expired: 20170101T010101Z is now earlier than 20261124T114500Z (20261124T120000Z - 15 min.)"},
		{name: "tampered body", req: signed, body: `{"TableName":"u"}`, code: CodeInvalidSignature, msg: invalidSig},
		{name: "tampered signed header", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DeleteTable")
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "tampered host", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Host = "localhost:8001"
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "unsigned header added", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Header.Set("X-Added-Later", "yes")
			r.Header.Set("User-Agent", "changed")
			return r
		}},
		{name: "signed header removed", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.Header.Del("X-Amz-Target")
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		// [dynalite-index], exact text.
		{name: "Host not signed", req: func(t *testing.T) *http.Request {
			r := signed(t)
			a := r.Header.Get("Authorization")
			return setAuth(r, strings.Replace(a, "host;", "", 1))
		}, code: CodeInvalidSignature, msg: "'Host' must be a 'SignedHeader' in the AWS Authorization."},
		// [dynalite-index], exact text, trailing space included.
		{name: "unsupported algorithm", req: func(t *testing.T) *http.Request {
			r := signed(t)
			return setAuth(r, strings.Replace(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256", "AWS4-HMAC-SHA25", 1))
		}, code: CodeIncompleteSignature, msg: "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for now). "},
		// [dynalite-index], exact text.
		{name: "credential of four elements", req: func(t *testing.T) *http.Request {
			return setAuth(signed(t), "AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, Signature=b")
		}, code: CodeIncompleteSignature, msg: "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got 'a/b/c/d'"},
		{name: "credential with trailing slashes", req: func(t *testing.T) *http.Request {
			r := signed(t)
			return setAuth(r, strings.Replace(r.Header.Get("Authorization"), "aws4_request", "aws4_request//", 1))
		}},
		// [dynalite-index]
		{name: "wrong service", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.service = "dynamodbstreams"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeInvalidSignature, msg: "Credential should be scoped to correct service: 'dynamodb'."},
		// [dynalite-index]: every scope fault in one message, in this
		// order. dynago takes any region of lowercase letters, digits and
		// dashes, so the region here has an uppercase letter.
		{name: "every scope fault", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Date", "20261124T115204Z")
			return setAuth(r, "AWS4-HMAC-SHA256 Credential=a/b/C/d/e, SignedHeaders=host, Signature=b")
		}, code: CodeInvalidSignature, msg: "Credential should be scoped to a valid region, not 'C'. " +
			"Credential should be scoped to correct service: 'dynamodb'. " +
			"Credential should be scoped with a valid terminator: 'aws4_request', not 'e'. " +
			"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: 'b' != '20261124', from '20261124T115204Z'."},
		{name: "scope date of another day", req: func(t *testing.T) *http.Request {
			r := signed(t)
			return setAuth(r, strings.Replace(r.Header.Get("Authorization"), "/20261124/", "/20261123/", 1))
		}, code: CodeInvalidSignature, msg: "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20261123' != '20261124', from '20261124T120000Z'."},
		{name: "signature not hex", req: func(t *testing.T) *http.Request {
			r := signed(t)
			a := r.Header.Get("Authorization")
			return setAuth(r, a[:len(a)-64]+strings.Repeat("Z", 64))
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "signature in upper case", req: func(t *testing.T) *http.Request {
			r := signed(t)
			a := r.Header.Get("Authorization")
			return setAuth(r, a[:len(a)-64]+strings.ToUpper(a[len(a)-64:]))
		}, code: CodeInvalidSignature, msg: invalidSig},
		// [scylla-auth]: commas alone separate the parts.
		{name: "parts separated by commas only", req: func(t *testing.T) *http.Request {
			r := signed(t)
			return setAuth(r, strings.ReplaceAll(r.Header.Get("Authorization"), ", ", ","))
		}},
		// [dynalite-conn2]
		{name: "header and query both", req: func(t *testing.T) *http.Request {
			r := signed(t)
			r.URL.RawQuery = "X-Amz-Algorithm=AWS4-HMAC-SHA256"
			return r
		}, code: CodeInvalidSignature, msg: "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."},
		{name: "Date header instead of X-Amz-Date", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("Date", testNow.Format(http.TimeFormat))
			handSign(r, testKey, testSecret, testNow.Format(amzDateFormat), testBody, []string{"host", "date", "x-amz-target"})
			return r
		}},
		{name: "hand-signed, SignedHeaders unsorted", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Date", testNow.Format(amzDateFormat))
			handSign(r, testKey, testSecret, testNow.Format(amzDateFormat), testBody, []string{"x-amz-target", "host", "x-amz-date"})
			return r
		}},
		{name: "unsigned payload", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Content-Sha256", UnsignedPayload)
			s := defaultSigning()
			s.payloadHash = UnsignedPayload
			return sdkSign(t, r, s)
		}, body: `{"any":"body"}`},
		{name: "unsigned payload claimed but not sent", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.payloadHash = UnsignedPayload
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "content sha256 of the body", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Content-Sha256", hashHex(testBody))
			return sdkSign(t, r, defaultSigning())
		}},
		{name: "content sha256 of another body", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Content-Sha256", hashHex("other"))
			s := defaultSigning()
			s.payloadHash = hashHex("other")
			return sdkSign(t, r, s)
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "path and query encoding", req: func(t *testing.T) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/a%20b/c~d/%C3%A9?b=2&a=1&a=0&sp=x%20y&plus=a+b&e=&slash=%2F", strings.NewReader(testBody))
			r.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
			return sdkSign(t, r, defaultSigning())
		}},
		{name: "path with dot segments, signed as sent", req: func(t *testing.T) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/x/../y//z/./", strings.NewReader(testBody))
			return sdkSign(t, r, defaultSigning())
		}},
		// botocore signs the path normalized and sends it as given.
		{name: "path with dot segments, signed normalized", req: func(t *testing.T) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/y/z/", strings.NewReader(testBody))
			sdkSign(t, r, defaultSigning())
			r.URL.Path, r.URL.RawPath = "/x/../y//z/./", ""
			return r
		}},
		{name: "path changed", req: func(t *testing.T) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/y/z", strings.NewReader(testBody))
			sdkSign(t, r, defaultSigning())
			r.URL.Path = "/y/w"
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "header whitespace and repeated headers", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.Header.Set("X-Amz-Meta", "  a   b  c ")
			r.Header.Add("X-Amz-Multi", "one")
			r.Header.Add("X-Amz-Multi", " two  too ")
			return sdkSign(t, r, defaultSigning())
		}},
		{name: "query tampered", req: func(t *testing.T) *http.Request {
			r := httptest.NewRequest(http.MethodPost, "http://localhost:8000/?a=1", strings.NewReader(testBody))
			sdkSign(t, r, defaultSigning())
			r.URL.RawQuery = "a=2"
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},

		// Temporary credentials.
		{name: "token of a temporary key", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret, s.token = tempKey, tempSecret, tempToken
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, id: &Identity{AccessKeyID: tempKey, Region: "us-east-1", AccountID: DefaultAccountID, SessionToken: tempToken}},
		// [dynalite-index]: no period after "invalid" for a bad token.
		{name: "wrong token of a temporary key", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret, s.token = tempKey, tempSecret, "other"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeUnrecognizedClient, msg: badToken},
		{name: "temporary key without its token", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret = tempKey, tempSecret
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, code: CodeUnrecognizedClient, msg: badToken},
		{name: "signed token changed", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.token = "token-a"
			r := sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
			r.Header.Set("X-Amz-Security-Token", "token-b")
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "token of a long-term key", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.token = "any-token"
			return sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}},
		// A token outside SignedHeaders is allowed, as AWS's SigV4 page
		// lets services take it added after signing; it is still checked.
		{name: "unsigned token, right", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret = tempKey, tempSecret
			r := sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
			r.Header.Set("X-Amz-Security-Token", tempToken)
			return r
		}},
		{name: "unsigned token, wrong", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret = tempKey, tempSecret
			r := sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
			r.Header.Set("X-Amz-Security-Token", "other")
			return r
		}, code: CodeUnrecognizedClient, msg: badToken},

		// Presigned requests.
		{name: "presigned", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=300"
			return sdkPresign(t, r, defaultSigning())
		}, now: testNow.Add(5 * time.Minute)},
		{name: "presigned without X-Amz-Expires", req: func(t *testing.T) *http.Request {
			return sdkPresign(t, newRequest("DynamoDB_20120810.ListTables"), defaultSigning())
		}, now: testNow.Add(15 * time.Minute)},
		// [none]: the expiry of a presigned request.
		{name: "presigned expired", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=300"
			return sdkPresign(t, r, defaultSigning())
		}, now: testNow.Add(5*time.Minute + time.Second), code: CodeInvalidSignature,
			msg: "Signature expired: 20261124T120000Z is now earlier than 20261124T120001Z (20261124T120501Z - 5 min.)"},
		{name: "presigned expired, odd seconds", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=90"
			return sdkPresign(t, r, defaultSigning())
		}, now: testNow.Add(91 * time.Second), code: CodeInvalidSignature,
			msg: "Signature expired: 20261124T120000Z is now earlier than 20261124T120001Z (20261124T120131Z - 90 sec.)"},
		{name: "presigned with a token", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret, s.token = tempKey, tempSecret, tempToken
			return sdkPresign(t, newRequest("DynamoDB_20120810.ListTables"), s)
		}, id: &Identity{AccessKeyID: tempKey, Region: "us-east-1", AccountID: DefaultAccountID, SessionToken: tempToken}},
		{name: "presigned token changed", req: func(t *testing.T) *http.Request {
			s := defaultSigning()
			s.key, s.secret, s.token = tempKey, tempSecret, tempToken
			r := sdkPresign(t, newRequest("DynamoDB_20120810.ListTables"), s)
			r.URL.RawQuery = strings.Replace(r.URL.RawQuery, "X-Amz-Security-Token=", "X-Amz-Security-Token=x", 1)
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "presigned expiry lengthened", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=300"
			r = sdkPresign(t, r, defaultSigning())
			r.URL.RawQuery = strings.Replace(r.URL.RawQuery, "X-Amz-Expires=300", "X-Amz-Expires=600", 1)
			return r
		}, code: CodeInvalidSignature, msg: invalidSig},
		{name: "presigned body tampered", req: func(t *testing.T) *http.Request {
			return sdkPresign(t, newRequest("DynamoDB_20120810.ListTables"), defaultSigning())
		}, body: `{}`, code: CodeInvalidSignature, msg: invalidSig},
		// [dynalite-conn2]
		{name: "presigned short of parameters", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261124T120000Z"
			return r
		}, code: CodeIncompleteSignature, msg: "AWS query-string parameters must include 'X-Amz-Credential'. " +
			"AWS query-string parameters must include 'X-Amz-Signature'. " +
			"AWS query-string parameters must include 'X-Amz-SignedHeaders'. Re-examine the query-string parameters."},
		// [none]: a count of seconds whose nanoseconds overflow int64.
		{name: "presigned expiry overflowing", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=18446744074"
			return sdkPresign(t, r, defaultSigning())
		}, code: CodeIncompleteSignature, msg: "X-Amz-Expires must be a whole number of seconds from 1 to 604800, got '18446744074'."},
		// [none]
		{name: "presigned expiry too long", req: func(t *testing.T) *http.Request {
			r := newRequest("DynamoDB_20120810.ListTables")
			r.URL.RawQuery = "X-Amz-Expires=604801"
			return sdkPresign(t, r, defaultSigning())
		}, code: CodeIncompleteSignature, msg: "X-Amz-Expires must be a whole number of seconds from 1 to 604800, got '604801'."},
	}
	v := testVerifier(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.req(t)
			body := tc.body
			if body == "" {
				body = testBody
			}
			now := tc.now
			if now.IsZero() {
				now = testNow
			}
			id, err := v.Verify(r, []byte(body), now)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Verify: %v\nAuthorization: %s\nquery: %s", err, r.Header.Get("Authorization"), r.URL.RawQuery)
				}
				if tc.id != nil && id != *tc.id {
					t.Fatalf("identity %+v, want %+v", id, *tc.id)
				}
				return
			}
			want := &dynamo.Error{Code: tc.code, Message: tc.msg}
			if err == nil || err.Code != want.Code || err.Message != want.Message {
				t.Fatalf("Verify:\n got %v\nwant %v", err, want)
			}
		})
	}
}

func TestVerifyPayloadHashMatchesVerify(t *testing.T) {
	v := testVerifier(t)
	r := signed(t)
	if _, err := v.VerifyPayloadHash(r, hashHex(testBody), testNow); err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyPayloadHash(r, hashHex("x"), testNow); err == nil || err.Code != CodeInvalidSignature {
		t.Fatalf("got %v, want InvalidSignatureException", err)
	}
}

func TestExempt(t *testing.T) {
	for m, want := range map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true, "POST": false, "PUT": false, "DELETE": false} {
		if got := Exempt(httptest.NewRequest(m, "/", nil)); got != want {
			t.Errorf("Exempt(%s) = %v, want %v", m, got, want)
		}
	}
}

func TestSigningKeyCache(t *testing.T) {
	v := testVerifier(t)
	r := signed(t)
	for i := 0; i < 3; i++ {
		if _, err := v.Verify(r, []byte(testBody), testNow); err != nil {
			t.Fatal(err)
		}
	}
	if len(v.keys) != 1 {
		t.Fatalf("%d cached keys, want 1", len(v.keys))
	}
	// A cached key of one secret is never used for another.
	s := defaultSigning()
	s.key, s.secret, s.token = tempKey, tempSecret, tempToken
	if _, err := v.Verify(sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s), []byte(testBody), testNow); err != nil {
		t.Fatal(err)
	}
	if len(v.keys) != 2 {
		t.Fatalf("%d cached keys, want 2", len(v.keys))
	}
}

func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{
		"": "/", "/": "/", "//": "/", "/a": "/a", "/a/": "/a/", "/a//b": "/a/b", "/./a/./b/.": "/a/b",
		"/a/b/../c": "/a/c", "/../../a": "/a", "/a/..": "/", "/a/../": "/", "a/b": "a/b", "/a%2Fb/": "/a%2Fb/",
	} {
		if got := normalizePath(in); got != want {
			t.Errorf("normalizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHMACInPlace(t *testing.T) {
	for _, n := range []int{0, 1, 55, 56, 64, 200, 2000} {
		var key [sha256.Size]byte
		for i := range key {
			key[i] = byte(i*7 + n)
		}
		msg := []byte(strings.Repeat("m", n))
		m := hmac.New(sha256.New, key[:])
		m.Write(msg)
		want := m.Sum(nil)
		got := hmacInPlace(&key, append(make([]byte, sha256.BlockSize), msg...))
		if !hmac.Equal(got[:], want) {
			t.Fatalf("message of %d bytes: %x, want %x", n, got, want)
		}
	}
}

func TestHeaderValuesOfUncanonicalNames(t *testing.T) {
	h := http.Header{"X-Amz-Date": {"a"}, "x_odd name": {"b"}}
	if got := headerValues(h, "x-amz-date"); len(got) != 1 || got[0] != "a" {
		t.Fatalf("x-amz-date: %q", got)
	}
	if got := headerValues(h, "x_odd name"); len(got) != 1 || got[0] != "b" {
		t.Fatalf("x_odd name: %q", got)
	}
	if got := headerValues(h, "absent"); got != nil {
		t.Fatalf("absent: %q", got)
	}
}

// Verifications from many goroutines share the key cache; run with -race.
func TestVerifyConcurrently(t *testing.T) {
	v := testVerifier(t)
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			s := defaultSigning()
			s.region = []string{"us-east-1", "eu-west-1"}[g%2]
			var err error
			for i := 0; i < 50 && err == nil; i++ {
				r := sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), s)
				if _, e := v.Verify(r, []byte(testBody), testNow); e != nil {
					err = e
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestPrecheck: before the body, Precheck refuses what Verify would
// refuse whatever the body (no signature, an unknown key, a signature out
// of its time window), and with a declared payload hash (or
// UNSIGNED-PAYLOAD) a wrong signature too; without one it cannot tell a
// wrong signature, which Verify then refuses. A body that is not the one
// whose hash was declared and signed passes Precheck and fails Verify.
func TestPrecheck(t *testing.T) {
	v := testVerifier(t)
	withHash := func(h string) signing {
		s := defaultSigning()
		s.payloadHash = h
		return s
	}
	declare := func(h string) *http.Request {
		r := newRequest("DynamoDB_20120810.ListTables")
		r.Header.Set("X-Amz-Content-Sha256", h)
		return r
	}
	wrong := defaultSigning()
	wrong.secret = "wrong"
	unknown := defaultSigning()
	unknown.key = "AKIDNOBODY"
	old := defaultSigning()
	old.at = testNow.Add(-time.Hour)
	wrongUnsigned := withHash(UnsignedPayload)
	wrongUnsigned.secret = "wrong"
	for _, tc := range []struct {
		name     string
		r        *http.Request
		pre, ver string // the error codes of Precheck and Verify, "" for none
	}{
		{"unsigned", newRequest("DynamoDB_20120810.ListTables"), "MissingAuthenticationTokenException", "MissingAuthenticationTokenException"},
		{"right", signed(t), "", ""},
		{"wrong secret", sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), wrong), "", "InvalidSignatureException"},
		{"unknown key", sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), unknown), "UnrecognizedClientException", "UnrecognizedClientException"},
		{"expired", sdkSign(t, newRequest("DynamoDB_20120810.ListTables"), old), "InvalidSignatureException", "InvalidSignatureException"},
		{"declared, right", sdkSign(t, declare(hashHex(testBody)), defaultSigning()), "", ""},
		{"declared, wrong secret", sdkSign(t, declare(hashHex(testBody)), wrong), "InvalidSignatureException", "InvalidSignatureException"},
		{"declared another body", sdkSign(t, declare(hashHex("other")), withHash(hashHex("other"))), "", "InvalidSignatureException"},
		{"unsigned payload, right", sdkSign(t, declare(UnsignedPayload), withHash(UnsignedPayload)), "", ""},
		{"unsigned payload, wrong secret", sdkSign(t, declare(UnsignedPayload), wrongUnsigned), "InvalidSignatureException", "InvalidSignatureException"},
		{"presigned, wrong secret", sdkPresign(t, newRequest("DynamoDB_20120810.ListTables"), wrong), "", "InvalidSignatureException"},
	} {
		code := func(e *dynamo.Error) string {
			if e == nil {
				return ""
			}
			return e.Code
		}
		if got := code(v.Precheck(tc.r, testNow)); got != tc.pre {
			t.Errorf("%s: Precheck %q, want %q", tc.name, got, tc.pre)
		}
		if _, err := v.Verify(tc.r, []byte(testBody), testNow); code(err) != tc.ver {
			t.Errorf("%s: Verify %q, want %q", tc.name, code(err), tc.ver)
		}
	}
}
