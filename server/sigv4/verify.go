package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// Algorithm is the only signing algorithm DynamoDB accepts.
const Algorithm = "AWS4-HMAC-SHA256"

// UnsignedPayload is the x-amz-content-sha256 value of a request whose
// body the signature does not cover.
const UnsignedPayload = "UNSIGNED-PAYLOAD"

// Identity is who signed a request.
type Identity struct {
	// AccessKeyID is the key the request was signed with.
	AccessKeyID string
	// Region is the region of the credential scope.
	Region string
	// AccountID is the key's account, from the credentials file.
	AccountID string
	// SessionToken is the X-Amz-Security-Token the request carried, if any.
	SessionToken string
}

// Verifier checks Signature Version 4 signatures against a set of
// credentials. It is safe for concurrent use.
type Verifier struct {
	creds *Credentials
	// Now is the clock the Handler middleware reads. The default is
	// time.Now; tests set a fixed one.
	Now func() time.Time

	mu   sync.RWMutex
	keys map[keyID][sha256.Size]byte
}

// keyID names one signing key: it depends on the secret, the scope's date
// and region (the service is always dynamodb).
type keyID struct{ secret, date, region string }

// maxCachedKeys bounds the signing-key cache; it is emptied when full.
// Keys change daily, so a day's worth of keys and regions fits.
const maxCachedKeys = 4096

// NewVerifier returns a verifier of requests signed with creds.
func NewVerifier(creds *Credentials) *Verifier {
	return &Verifier{creds: creds, Now: time.Now, keys: make(map[keyID][sha256.Size]byte)}
}

// AccountOf returns the account the credentials give accessKeyID, and
// whether they know the key.
func (v *Verifier) AccountOf(accessKeyID string) (string, bool) {
	cred, ok := v.creds.Lookup(accessKeyID)
	if !ok {
		return "", false
	}
	return cred.AccountID, true
}

// Exempt reports whether a request needs no signature: GET and HEAD (the
// health check at "/" and DynamoDB's 404 pages) and OPTIONS (CORS
// preflight), as DynamoDB's endpoint answers those unsigned.
func Exempt(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// Verify checks the signature of r, whose body (as received, before any
// Content-Encoding is undone) is body, at time now. It does not read
// r.Body. It returns the signer's identity, or DynamoDB's error for the
// first check that fails: MissingAuthenticationTokenException,
// IncompleteSignatureException, InvalidSignatureException or
// UnrecognizedClientException, each sent with HTTP 400.
func (v *Verifier) Verify(r *http.Request, body []byte, now time.Time) (Identity, *dynamo.Error) {
	sum := sha256.Sum256(body)
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], sum[:])
	return v.VerifyPayloadHash(r, string(hexSum[:]), now)
}

// VerifyPayloadHash is Verify for a caller that has hashed the body
// itself, as it streamed in: payloadHash is the lowercase hex SHA-256 of
// the body as received.
func (v *Verifier) VerifyPayloadHash(r *http.Request, payloadHash string, now time.Time) (Identity, *dynamo.Error) {
	if payloadHash == "" {
		payloadHash = emptyHash
	}
	return v.verify(r, payloadHash, now)
}

// Precheck checks, before r's body is read, what of its signature does
// not need the body, and returns the error Verify would return for it, or
// nil. When the request declares its body's hash (an X-Amz-Content-Sha256
// header of 64 hex digits, or UNSIGNED-PAYLOAD) that is everything, the
// signature included, with the declared hash standing for the body's;
// Verify then fails if the body does not match it, as the signature was
// made over the declared hash. Otherwise it is everything before the
// signature: the time window, the algorithm, the credential's scope and
// access key, the signature's form. A server calls it before it reads a
// body, so that an unsigned request, or one by an unknown key, costs it
// no body; it must still call Verify once the body is read.
func (v *Verifier) Precheck(r *http.Request, now time.Time) *dynamo.Error {
	_, err := v.verify(r, "", now)
	return err
}

// emptyHash is the hex SHA-256 of an empty body.
const emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// declaredHash returns the payload hash a request declares in
// X-Amz-Content-Sha256, if it is one: 64 lowercase hex digits, as SigV4
// writes it.
func declaredHash(r *http.Request) (string, bool) {
	h := r.Header.Get("X-Amz-Content-Sha256")
	if len(h) != 2*sha256.Size {
		return "", false
	}
	for i := range len(h) {
		if _, ok := lowerHexDigit(h[i]); !ok {
			return "", false
		}
	}
	return h, true
}

// verify is VerifyPayloadHash, or with payloadHash "" (unknown: the body
// is not read yet) Precheck's checks.
func (v *Verifier) verify(r *http.Request, payloadHash string, now time.Time) (Identity, *dynamo.Error) {
	if payloadHash == "" {
		payloadHash, _ = declaredHash(r)
	}
	header, hasHeader := r.Header["Authorization"]
	query := parseQuery(r.URL.RawQuery)
	presigned := hasParam(query, "X-Amz-Algorithm")
	if hasHeader && presigned {
		return Identity{}, invalid(msgBothAuth)
	}
	if presigned {
		return v.verifyQuery(r, query, payloadHash, now)
	}
	if !hasHeader {
		return Identity{}, MissingToken()
	}
	return v.verifyHeader(r, strings.Join(header, ","), query, payloadHash, now)
}

// request is what both forms of signing carry, once parsed.
type request struct {
	algorithm     string
	credential    string
	signedHeaders string
	signature     string
	amzDate       string // ISO-8601 basic form
	signedAt      time.Time
	window        time.Duration // how long the signature lasts: skew, or X-Amz-Expires
	token         string
	payloadHash   string
	skipParam     string // the query parameter left out of the canonical query
}

func (v *Verifier) verifyHeader(r *http.Request, header string, query []queryParam, payloadHash string, now time.Time) (Identity, *dynamo.Error) {
	date := r.Header.Get("X-Amz-Date")
	fromDateHeader := false
	if date == "" {
		date, fromDateHeader = r.Header.Get("Date"), true
	}
	a, err := parseAuthorization(header, date != "")
	if err != nil {
		return Identity{}, err
	}
	req := request{
		algorithm:     a.algorithm,
		credential:    a.credential,
		signedHeaders: a.signedHeaders,
		signature:     a.signature,
		window:        skew,
		token:         r.Header.Get("X-Amz-Security-Token"),
		payloadHash:   payloadHash,
	}
	if req.signedAt, err = parseDate(date, fromDateHeader); err != nil {
		return Identity{}, err
	}
	if cs := r.Header.Get("X-Amz-Content-Sha256"); cs == UnsignedPayload {
		req.payloadHash = UnsignedPayload
	}
	return v.check(r, &req, query, now)
}

func (v *Verifier) verifyQuery(r *http.Request, query []queryParam, payloadHash string, now time.Time) (Identity, *dynamo.Error) {
	get := func(name string) string { return paramValue(query, name) }
	var missing []string
	for _, p := range [...]string{"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders", "X-Amz-Date"} {
		if get(p) == "" {
			missing = append(missing, p)
		}
	}
	if missing != nil {
		return Identity{}, missingQueryParams(missing)
	}
	req := request{
		algorithm:     get("X-Amz-Algorithm"),
		credential:    get("X-Amz-Credential"),
		signedHeaders: get("X-Amz-SignedHeaders"),
		signature:     get("X-Amz-Signature"),
		window:        skew,
		token:         get("X-Amz-Security-Token"),
		payloadHash:   payloadHash,
		skipParam:     "X-Amz-Signature",
	}
	var err *dynamo.Error
	if req.signedAt, err = parseDate(get("X-Amz-Date"), false); err != nil {
		return Identity{}, err
	}
	if e, ok := lookupParam(query, "X-Amz-Expires"); ok {
		secs, perr := strconv.Atoi(e)
		// Compared in seconds: a huge count would overflow a Duration.
		if perr != nil || secs < 1 || secs > int(maxExpires/time.Second) {
			return Identity{}, badExpires(e)
		}
		req.window = time.Duration(secs) * time.Second
	}
	if get("X-Amz-Content-Sha256") == UnsignedPayload || r.Header.Get("X-Amz-Content-Sha256") == UnsignedPayload {
		req.payloadHash = UnsignedPayload
	}
	return v.check(r, &req, query, now)
}

// parseDate reads X-Amz-Date (ISO-8601 basic form) or, without one, the
// Date header, which may also be an HTTP date.
func parseDate(s string, httpDate bool) (time.Time, *dynamo.Error) {
	// time.Parse would take a fraction of a second too, which the string
	// to sign would then lose.
	if len(s) == len(amzDateFormat) {
		if t, err := time.Parse(amzDateFormat, s); err == nil {
			return t, nil
		}
	}
	if httpDate {
		if t, err := http.ParseTime(s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, badDate(s)
}

// check runs the checks both forms share, in DynamoDB's order: the time
// window, Host among the signed headers, the algorithm, the credential's
// shape and scope, the access key, the signature, the session token.
func (v *Verifier) check(r *http.Request, req *request, query []queryParam, now time.Time) (Identity, *dynamo.Error) {
	now = now.UTC().Truncate(time.Second)
	if req.signedAt.Before(now.Add(-req.window)) {
		return Identity{}, expired(req.signedAt, now, req.window)
	}
	if req.signedAt.After(now.Add(skew)) {
		return Identity{}, notYetCurrent(req.signedAt, now)
	}
	names, host := signedHeaderNames(req.signedHeaders)
	if !host {
		return Identity{}, invalid(msgHostNotSigned)
	}
	if req.algorithm != Algorithm {
		return Identity{}, badAlgorithm(req.algorithm)
	}
	sc, err := parseScope(req.credential)
	if err != nil {
		return Identity{}, err
	}
	req.amzDate = req.signedAt.Format(amzDateFormat)
	if err := sc.check(req.amzDate); err != nil {
		return Identity{}, err
	}
	cred, ok := v.creds.Lookup(sc.accessKeyID)
	if !ok {
		return Identity{}, authError(CodeUnrecognizedClient, msgUnknownKey)
	}
	got, ok := decodeSignature(req.signature)
	if !ok {
		return Identity{}, invalid(msgSignatureInvalid)
	}
	if req.payloadHash == "" {
		// Precheck of a body not read yet, whose hash is not declared:
		// the signature waits for it.
		return Identity{}, nil
	}
	path := r.URL.EscapedPath()
	want := v.signature(r, req, path, names, query, cred, sc)
	if !hmac.Equal(got[:], want[:]) {
		// A client may have signed the path normalized.
		norm := normalizePath(path)
		if norm == path || norm == "/" && path == "" {
			return Identity{}, invalid(msgSignatureInvalid)
		}
		want = v.signature(r, req, norm, names, query, cred, sc)
		if !hmac.Equal(got[:], want[:]) {
			return Identity{}, invalid(msgSignatureInvalid)
		}
	}
	if cred.SessionToken != "" && subtle.ConstantTimeCompare([]byte(req.token), []byte(cred.SessionToken)) != 1 {
		return Identity{}, authError(CodeUnrecognizedClient, msgBadToken)
	}
	return Identity{AccessKeyID: cred.AccessKeyID, Region: sc.region, AccountID: cred.AccountID, SessionToken: req.token}, nil
}

// decodeSignature decodes 64 lowercase hex digits, the only form SigV4
// writes a signature in.
func decodeSignature(s string) (sig [sha256.Size]byte, ok bool) {
	if len(s) != 2*sha256.Size {
		return sig, false
	}
	for i := range sig {
		hi, ok1 := lowerHexDigit(s[2*i])
		lo, ok2 := lowerHexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return sig, false
		}
		sig[i] = hi<<4 | lo
	}
	return sig, true
}

func lowerHexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// signature computes the signature the request should carry.
func (v *Verifier) signature(r *http.Request, req *request, path string, names []string, query []queryParam, cred *Credential, sc scope) [sha256.Size]byte {
	var stack [1024]byte
	buf := stack[:0]
	buf = append(buf, r.Method...)
	buf = append(buf, '\n')
	buf = appendCanonicalURI(buf, path)
	buf = append(buf, '\n')
	buf = appendCanonicalQuery(buf, query, req.skipParam)
	buf = append(buf, '\n')
	buf = appendCanonicalHeaders(buf, r, names)
	buf = append(buf, '\n')
	for i, n := range names {
		if i > 0 {
			buf = append(buf, ';')
		}
		buf = append(buf, n...)
	}
	buf = append(buf, '\n')
	buf = append(buf, req.payloadHash...)
	canonicalHash := sha256.Sum256(buf)

	// The string to sign reuses the buffer, after room for HMAC's inner
	// pad.
	buf = append(buf[:0], make([]byte, sha256.BlockSize)...)
	buf = append(buf, Algorithm...)
	buf = append(buf, '\n')
	buf = append(buf, req.amzDate...)
	buf = append(buf, '\n')
	buf = append(buf, sc.date...)
	buf = append(buf, '/')
	buf = append(buf, sc.region...)
	buf = append(buf, "/dynamodb/aws4_request\n"...)
	buf = hex.AppendEncode(buf, canonicalHash[:])

	key := v.signingKey(cred.SecretAccessKey, sc.date, sc.region)
	return hmacInPlace(&key, buf)
}

// hmacInPlace is HMAC-SHA256 (RFC 2104) with a 32-byte key of msg, whose
// first 64 bytes are room for the inner pad: H(K^opad || H(K^ipad || m)),
// without allocating.
func hmacInPlace(key *[sha256.Size]byte, msg []byte) [sha256.Size]byte {
	pad := msg[:sha256.BlockSize]
	for i := range pad {
		pad[i] = 0x36
	}
	for i, b := range key {
		pad[i] ^= b
	}
	inner := sha256.Sum256(msg)
	var outer [sha256.BlockSize + sha256.Size]byte
	for i := range sha256.BlockSize {
		outer[i] = 0x5c
	}
	for i, b := range key {
		outer[i] ^= b
	}
	copy(outer[sha256.BlockSize:], inner[:])
	return sha256.Sum256(outer[:])
}

// signingKey derives, or takes from the cache, the key of one secret, day
// and region: HMAC chained over "AWS4"+secret, date, region, "dynamodb",
// "aws4_request".
func (v *Verifier) signingKey(secret, date, region string) [sha256.Size]byte {
	id := keyID{secret, date, region}
	v.mu.RLock()
	k, ok := v.keys[id]
	v.mu.RUnlock()
	if ok {
		return k
	}
	b := hmacSHA256([]byte("AWS4"+secret), date)
	b = hmacSHA256(b, region)
	b = hmacSHA256(b, "dynamodb")
	b = hmacSHA256(b, "aws4_request")
	copy(k[:], b)
	v.mu.Lock()
	if len(v.keys) >= maxCachedKeys {
		clear(v.keys)
	}
	v.keys[id] = k
	v.mu.Unlock()
	return k
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

func hasParam(ps []queryParam, name string) bool {
	_, ok := lookupParam(ps, name)
	return ok
}

func lookupParam(ps []queryParam, name string) (string, bool) {
	for _, p := range ps {
		if p.name == name {
			return p.value, true
		}
	}
	return "", false
}

func paramValue(ps []queryParam, name string) string {
	v, _ := lookupParam(ps, name)
	return v
}
