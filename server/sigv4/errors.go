package sigv4

import (
	"fmt"
	"strings"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// The error codes of DynamoDB's authentication. Each is answered with HTTP
// 400 and the __type prefix com.amazon.coral.service# (the wire table of
// server/internal/protocol already lists them).
const (
	CodeMissingAuthenticationToken = dynamo.CodeMissingAuthenticationToken
	CodeIncompleteSignature        = "IncompleteSignatureException"
	CodeInvalidSignature           = "InvalidSignatureException"
	CodeUnrecognizedClient         = "UnrecognizedClientException"
)

// Messages. Where each comes from is said in verify_test.go beside the case
// that checks it; the ones no public record shows are marked there.
const (
	msgMissingToken     = "Request is missing Authentication Token"
	msgBothAuth         = "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."
	msgUnknownKey       = "The security token included in the request is invalid."
	msgBadToken         = "The security token included in the request is invalid"
	msgHostNotSigned    = "'Host' must be a 'SignedHeader' in the AWS Authorization."
	msgSignatureInvalid = "The request signature we calculated does not match the signature you provided. " +
		"Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
)

// skew is how far X-Amz-Date may be from the server's clock: 15 minutes on
// DynamoDB ("... - 15 min.)" in its messages).
const skew = 15 * time.Minute

// maxExpires is the longest X-Amz-Expires SigV4 allows: seven days.
const maxExpires = 7 * 24 * time.Hour

func authError(code, msg string) *dynamo.Error { return &dynamo.Error{Code: code, Message: msg} }

// MissingToken is DynamoDB's answer to a request that is not signed at
// all; the server gives it wherever it needs a signature it did not get.
func MissingToken() *dynamo.Error { return authError(CodeMissingAuthenticationToken, msgMissingToken) }

func incomplete(msg string) *dynamo.Error { return authError(CodeIncompleteSignature, msg) }

func invalid(msg string) *dynamo.Error { return authError(CodeInvalidSignature, msg) }

const amzDateFormat = "20060102T150405Z"

func expired(signed, now time.Time, window time.Duration) *dynamo.Error {
	return invalid(fmt.Sprintf("Signature expired: %s is now earlier than %s (%s - %s)",
		signed.Format(amzDateFormat), now.Add(-window).Format(amzDateFormat), now.Format(amzDateFormat), durationText(window)))
}

func notYetCurrent(signed, now time.Time) *dynamo.Error {
	return invalid(fmt.Sprintf("Signature not yet current: %s is still later than %s (%s + %s)",
		signed.Format(amzDateFormat), now.Add(skew).Format(amzDateFormat), now.Format(amzDateFormat), durationText(skew)))
}

// durationText says a window as DynamoDB does: "15 min.". A presigned
// request's window that is no whole number of minutes is said in seconds.
func durationText(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d min.", d/time.Minute)
	}
	return fmt.Sprintf("%d sec.", d/time.Second)
}

func badDate(got string) *dynamo.Error {
	return incomplete("Date must be in ISO-8601 'basic format'. Got '" + got + "'. See http://en.wikipedia.org/wiki/ISO_8601")
}

func badAlgorithm(got string) *dynamo.Error {
	return incomplete("Unsupported AWS 'algorithm': '" + got + "' (only AWS4-HMAC-SHA256 for now). ")
}

func badCredentialShape(got string) *dynamo.Error {
	return incomplete("Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '" + got + "'")
}

func notKeyValue(part, header string) *dynamo.Error {
	return incomplete("'" + part + "' not a valid key=value pair (missing equal-sign) in Authorization header: '" + header + "'.")
}

// missingQueryParams is the message for a presigned request short of
// parameters: one sentence per missing parameter, then a closing one.
func missingQueryParams(missing []string) *dynamo.Error {
	var b strings.Builder
	for _, m := range missing {
		b.WriteString("AWS query-string parameters must include '" + m + "'. ")
	}
	b.WriteString("Re-examine the query-string parameters.")
	return incomplete(b.String())
}

func badExpires(got string) *dynamo.Error {
	return incomplete("X-Amz-Expires must be a whole number of seconds from 1 to 604800, got '" + got + "'.")
}
