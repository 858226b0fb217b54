package sigv4

import (
	"strings"

	"github.com/dynago/dynago/dynamo"
)

// authorization is the parsed Authorization header of a signed request:
//
//	AWS4-HMAC-SHA256 Credential=AKID/20130609/us-east-1/dynamodb/aws4_request,
//	    SignedHeaders=host;x-amz-date, Signature=<64 hex digits>
//
// Its parts may be separated by commas, spaces or both, as DynamoDB
// accepts (ScyllaDB issue #9568 records a client that sends commas only).
type authorization struct {
	algorithm     string
	credential    string
	signedHeaders string
	signature     string
}

// parseAuthorization splits an Authorization header into its parts, in
// DynamoDB's order of checks: a header that does not begin "AWS4-" is no
// token at all; then each part must be key=value; then Credential,
// Signature and SignedHeaders must be there, and a date (hasDate says
// whether X-Amz-Date or Date is). It checks no values.
func parseAuthorization(header string, hasDate bool) (*authorization, *dynamo.Error) {
	s := strings.TrimSpace(header)
	if !strings.HasPrefix(s, "AWS4-") {
		return nil, MissingToken()
	}
	a := &authorization{}
	a.algorithm, s, _ = strings.Cut(s, " ")
	var seen [3]bool // Credential, SignedHeaders, Signature
	for s != "" {
		var part string
		i := strings.IndexAny(s, ", ")
		if i < 0 {
			part, s = s, ""
		} else {
			part, s = s[:i], s[i+1:]
		}
		if part == "" {
			continue
		}
		key, value, ok := strings.Cut(part, "=")
		if !ok {
			return nil, notKeyValue(part, header)
		}
		switch key {
		case "Credential":
			a.credential, seen[0] = value, true
		case "SignedHeaders":
			a.signedHeaders, seen[1] = value, true
		case "Signature":
			a.signature, seen[2] = value, true
		}
	}
	var msg strings.Builder
	if a.credential == "" {
		msg.WriteString("Authorization header requires 'Credential' parameter. ")
	}
	if a.signature == "" {
		msg.WriteString("Authorization header requires 'Signature' parameter. ")
	}
	if !seen[1] {
		// An empty SignedHeaders= passes here; the Host check refuses it.
		msg.WriteString("Authorization header requires 'SignedHeaders' parameter. ")
	}
	if !hasDate {
		msg.WriteString("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ")
	}
	if msg.Len() > 0 {
		msg.WriteString("Authorization=" + header)
		return nil, incomplete(msg.String())
	}
	return a, nil
}

// scope is a parsed credential scope: keyid/date/region/service/terminator.
type scope struct {
	accessKeyID, date, region, service, terminator string
}

// parseScope splits a Credential value. DynamoDB ignores trailing slashes
// and wants exactly five elements.
func parseScope(credential string) (scope, *dynamo.Error) {
	parts := strings.Split(strings.TrimRight(credential, "/"), "/")
	if len(parts) != 5 {
		return scope{}, badCredentialShape(credential)
	}
	return scope{parts[0], parts[1], parts[2], parts[3], parts[4]}, nil
}

// check compares the scope with what the request says, and reports every
// mismatch in one message, in DynamoDB's order: region, service,
// terminator, date. amzDate is the request's date in ISO-8601 basic form.
func (sc scope) check(amzDate string) *dynamo.Error {
	var msgs []string
	if !validRegion(sc.region) {
		msgs = append(msgs, "Credential should be scoped to a valid region, not '"+sc.region+"'.")
	}
	if sc.service != "dynamodb" {
		msgs = append(msgs, "Credential should be scoped to correct service: 'dynamodb'.")
	}
	if sc.terminator != "aws4_request" {
		msgs = append(msgs, "Credential should be scoped with a valid terminator: 'aws4_request', not '"+sc.terminator+"'.")
	}
	if sc.date != amzDate[:8] {
		msgs = append(msgs, "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '"+
			sc.date+"' != '"+amzDate[:8]+"', from '"+amzDate+"'.")
	}
	if msgs == nil {
		return nil
	}
	return invalid(strings.Join(msgs, " "))
}

// validRegion accepts any region name made of lowercase letters, digits
// and dashes: dynago serves every region.
func validRegion(r string) bool {
	if r == "" {
		return false
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
