package server

import (
	"net"
	"net/netip"
	"strings"

	"github.com/dynago/dynago/server/sigv4"
)

// hostAllowed reports whether a request with this Host header may be
// served: always when the check is off; else when it names localhost, a
// loopback IP address or an allowed host, with or without a port.
//
// The check defends a server on loopback against DNS rebinding: a web
// page on evil.example re-points its own name at 127.0.0.1 and its script
// then sends same-origin requests to the local server. Those requests
// carry Host: evil.example, which no client of a local server sends.
func (s *Server) hostAllowed(host string) bool {
	if !s.checkHost || s.allowedHosts["*"] {
		return true
	}
	h := normalizeHost(host)
	if h == "" {
		return false
	}
	if h == "localhost" || s.allowedHosts[h] {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsLoopback()
}

// normalizeHost returns the host name of a Host header or an allowed-host
// entry: without port, IPv6 brackets or a trailing dot, in lower case.
func normalizeHost(host string) string {
	host = strings.TrimSpace(host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// HostAllowed reports whether the server answers requests for host (the
// DNS-rebinding check of Config.CheckHost), for handlers mounted beside
// it such as the console's.
func (s *Server) HostAllowed(host string) bool { return s.hostAllowed(host) }

// Auth returns the signature verifier of Config.Auth, nil when any
// signature is accepted.
func (s *Server) Auth() *sigv4.Verifier { return s.auth }
