package sigv4

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// The canonical request of Signature Version 4, built as AWS's "Create a
// canonical request" describes it for services other than S3:
//
//	METHOD \n CanonicalURI \n CanonicalQuery \n CanonicalHeaders \n
//	SignedHeaders \n HashedPayload

const upperHex = "0123456789ABCDEF"

// appendURIEncoded appends s with every byte but the unreserved ones
// (A-Z a-z 0-9 - . _ ~), and '/' when keepSlash, written as %XY.
func appendURIEncoded(dst []byte, s string, keepSlash bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '/' && keepSlash {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
	}
	return dst
}

// appendCanonicalURI appends the path as sent (escaped), encoded once
// more: services other than S3 sign the already-encoded path encoded a
// second time, so "/a%20b" is signed as "/a%2520b". An empty path is "/".
func appendCanonicalURI(dst []byte, escapedPath string) []byte {
	if escapedPath == "" {
		return append(dst, '/')
	}
	return appendURIEncoded(dst, escapedPath, true)
}

// normalizePath removes the "." and ".." segments of a path (RFC 3986,
// 5.2.4) and its empty ones ("//"), keeping a leading and a trailing
// slash. Some SDKs sign the path so normalized while they send it as
// given; the AWS SDK for Go signs it as given.
func normalizePath(p string) string {
	if p == "" {
		return "/"
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, s)
		}
	}
	out := strings.Join(segs, "/")
	if p[0] == '/' {
		out = "/" + out
	}
	if p[len(p)-1] == '/' && len(segs) > 0 {
		out += "/"
	}
	return out
}

// queryParam is one name=value pair of a query string, decoded.
type queryParam struct{ name, value string }

// parseQuery splits a raw query string at '&' and decodes each name and
// value ('+' is a space). A pair that does not decode is kept as sent.
func parseQuery(raw string) []queryParam {
	if raw == "" {
		return nil
	}
	var ps []queryParam
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		ps = append(ps, queryParam{name, value})
	}
	return ps
}

// appendCanonicalQuery appends the query's pairs, each name and value
// URI-encoded, sorted by name and then value, leaving out the pair named
// skip (X-Amz-Signature of a presigned request).
func appendCanonicalQuery(dst []byte, ps []queryParam, skip string) []byte {
	if len(ps) == 0 {
		return dst
	}
	enc := make([]string, 0, len(ps))
	var b []byte
	for _, p := range ps {
		if p.name == skip {
			continue
		}
		b = appendURIEncoded(b[:0], p.name, false)
		b = append(b, '=')
		b = appendURIEncoded(b, p.value, false)
		enc = append(enc, string(b))
	}
	// Sorting "name=value" strings orders by name, then value, except when
	// one name is a prefix of another; compare the parts to be exact.
	sort.Slice(enc, func(i, j int) bool {
		ni, vi, _ := strings.Cut(enc[i], "=")
		nj, vj, _ := strings.Cut(enc[j], "=")
		if ni != nj {
			return ni < nj
		}
		return vi < vj
	})
	for i, e := range enc {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, e...)
	}
	return dst
}

// appendCanonicalHeaders appends "name:value\n" for each signed header, in
// the order given (lowercase names, sorted), and reports whether host is
// among them. A header sent more than once has its values joined with
// ','; each value is trimmed and its runs of spaces made one.
func appendCanonicalHeaders(dst []byte, r *http.Request, names []string) []byte {
	for _, name := range names {
		dst = append(dst, name...)
		dst = append(dst, ':')
		vs := headerValues(r.Header, name)
		switch {
		case name == "host":
			dst = appendHeaderValue(dst, r.Host)
		case name == "content-length" && vs == nil && r.ContentLength >= 0:
			// net/http keeps the length in the request, not always
			// among the headers.
			dst = strconv.AppendInt(dst, r.ContentLength, 10)
		default:
			for i, v := range vs {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendHeaderValue(dst, v)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// headerValues returns the values of a header by its lowercase name.
func headerValues(h http.Header, lower string) []string {
	// net/http keys headers in canonical form: "X-Amz-Date".
	var stack [64]byte
	key := stack[:0]
	if len(lower) > len(stack) {
		key = make([]byte, 0, len(lower))
	}
	upper := true
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if upper && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		upper = c == '-'
		key = append(key, c)
	}
	if vs, ok := h[string(key)]; ok {
		return vs
	}
	// A name net/textproto does not canonicalize is kept as sent.
	for k, vs := range h {
		if strings.EqualFold(k, lower) {
			return vs
		}
	}
	return nil
}

// appendHeaderValue appends v trimmed of spaces and tabs at both ends,
// with each run of spaces inside made one space.
func appendHeaderValue(dst []byte, v string) []byte {
	v = strings.Trim(v, " \t")
	space := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		dst = append(dst, c)
	}
	return dst
}

// signedHeaderNames splits a SignedHeaders value into lowercase names,
// sorted, and reports whether host is one of them.
func signedHeaderNames(s string) (names []string, host bool) {
	if s == "" {
		return nil, false
	}
	names = strings.Split(strings.ToLower(s), ";")
	if !sort.StringsAreSorted(names) {
		sort.Strings(names)
	}
	for _, n := range names {
		if n == "host" {
			host = true
		}
	}
	return names, host
}
