package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// CORS says which web pages may call the DynamoDB API on "/" from a
// browser (cross-origin resource sharing), as DynamoDB Local's -cors
// option does. A page of an allowed origin gets its preflight (OPTIONS
// with Access-Control-Request-Method) answered and
// Access-Control-Allow-Origin on every answer; other origins get neither,
// so the browser keeps their scripts from reading or (past a preflight)
// sending requests. Requests without an Origin header, which is every
// SDK, CLI and curl request, are not affected.
//
// The zero value allows the origins on localhost and loopback addresses,
// any scheme and port: local web apps and tools work, and a page on the
// internet cannot use the database of whoever visits it.
type CORS struct {
	// Off allows no origin: no CORS headers at all.
	Off bool
	// Any allows every origin ("Access-Control-Allow-Origin: *"), as
	// DynamoDB and DynamoDB Local's default do.
	Any bool
	// Origins are allowed origins, "scheme://host[:port]" in lower case.
	Origins map[string]bool
	// Hosts are allowed host names or IPs, with any scheme and port.
	Hosts map[string]bool
	// NoLoopback leaves out localhost and loopback addresses, which are
	// allowed unless Off, or unless an explicit list without "loopback"
	// was given.
	NoLoopback bool
}

// ParseCORS reads the --cors flag: "" (the default: localhost and
// loopback origins), "none", "*", or a comma-separated list whose entries
// are origins ("https://app.example.com:8443", matched exactly), host
// names or IPs ("app.example.com", any scheme and port) or "loopback"
// (localhost and loopback addresses). A list replaces the default.
func ParseCORS(flag string) (*CORS, error) {
	flag = strings.TrimSpace(flag)
	switch strings.ToLower(flag) {
	case "":
		return &CORS{}, nil
	case "none", "off":
		return &CORS{Off: true}, nil
	case "*":
		return &CORS{Any: true}, nil
	}
	c := &CORS{Origins: map[string]bool{}, Hosts: map[string]bool{}, NoLoopback: true}
	for _, e := range strings.Split(flag, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
			continue
		case e == "*":
			return nil, fmt.Errorf("%q: \"*\" allows every origin and cannot be part of a list", flag)
		case strings.EqualFold(e, "loopback"):
			c.NoLoopback = false
		case strings.Contains(e, "://"):
			o, ok := canonicalOrigin(e)
			if !ok {
				return nil, fmt.Errorf("%q is not an origin such as http://localhost:3000 or https://app.example.com", e)
			}
			c.Origins[o] = true
		default:
			h := normalizeHost(e)
			if h == "" || strings.ContainsAny(h, "/?#@ ") {
				return nil, fmt.Errorf("%q is not a host name or an origin such as https://app.example.com", e)
			}
			c.Hosts[h] = true
		}
	}
	return c, nil
}

// canonicalOrigin returns an origin as browsers send it: lower-case
// scheme and host, the port only when given, no path. ok is false for
// anything but an http or https origin.
func canonicalOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}

// allows reports whether a request with this Origin header may be
// answered with CORS headers.
func (c *CORS) allows(origin string) bool {
	if c.Off || origin == "" {
		return false
	}
	if c.Any {
		return true
	}
	o, ok := canonicalOrigin(origin)
	if !ok {
		return false // "null", or not a web origin
	}
	if c.Origins[o] {
		return true
	}
	u, _ := url.Parse(o)
	h := normalizeHost(u.Host)
	if c.Hosts[h] {
		return true
	}
	if c.NoLoopback {
		return false
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsLoopback()
}

// DynamoDB's CORS answers: the headers it lets scripts read (plus
// x-amz-crc32, for SDKs that check it) and how long a preflight may be
// cached.
const (
	corsExposeHeaders = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,x-amz-crc32"
	corsMaxAge        = "172800"
)

// cors adds the CORS headers for the request's Origin, if it is allowed,
// and reports whether it was. On a preflight it echoes the method and
// headers asked for, as DynamoDB does: every method and header a page of
// an allowed origin may use.
func (s *Server) cors(w http.ResponseWriter, r *http.Request, preflight bool) bool {
	origin := r.Header.Get("Origin")
	if !s.corsPolicy.allows(origin) {
		return false
	}
	h := w.Header()
	if s.corsPolicy.Any {
		h.Set("Access-Control-Allow-Origin", "*")
	} else {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	if preflight {
		if v := r.Header.Get("Access-Control-Request-Headers"); v != "" {
			h.Set("Access-Control-Allow-Headers", v)
		}
		if v := r.Header.Get("Access-Control-Request-Method"); v != "" {
			h.Set("Access-Control-Allow-Methods", v)
		}
		h.Set("Access-Control-Max-Age", corsMaxAge)
	}
	return true
}
