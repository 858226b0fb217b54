package server

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
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
	return hostAllowedBy(s.checkHost, s.allowedHosts, host)
}

// hostAllowedBy is the check of hostAllowed for a policy: whether to
// check, and the normalised names allowed besides loopback ones.
func hostAllowedBy(check bool, allowed map[string]bool, host string) bool {
	if !check || allowed["*"] {
		return true
	}
	h := normalizeHost(host)
	if h == "" {
		return false
	}
	if h == "localhost" || allowed[h] {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsLoopback()
}

// logHostRefused is the log line of a request refused by the Host check.
const logHostRefused = "refused a request for a host name the server does not answer to (see --allowed-hosts)"

// hostRefused is the message of the 403 that answers a request for a
// host the server does not answer to.
func hostRefused(host string) string {
	return fmt.Sprintf("Host %q is not allowed: dynago answers to localhost and loopback addresses only, unless started with --allowed-hosts", host)
}

// HostGuard serves h only to requests whose Host passes the DNS-rebinding
// check (as Config.CheckHost and Config.AllowedHosts set it for the API),
// and answers the others 403 with a plain-text reason. It guards what is
// served beside the API or on listeners of its own: metrics, the
// profiler. A page that rebinds its name to 127.0.0.1 could otherwise
// read them from the browser of anyone running dynago.
func HostGuard(check bool, allowedHosts []string, log *slog.Logger, h http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, a := range allowedHosts {
		if a = normalizeHost(a); a != "" {
			allowed[a] = true
		}
	}
	return guardHost(check, allowed, log, h)
}

// GuardHost is HostGuard with the API's own policy, for what is served on
// the API's listener beside it.
func (s *Server) GuardHost(h http.Handler) http.Handler {
	return guardHost(s.checkHost, s.allowedHosts, s.log, h)
}

func guardHost(check bool, allowed map[string]bool, log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowedBy(check, allowed, r.Host) {
			if log != nil {
				log.Info(logHostRefused, "host", r.Host, "remote", r.RemoteAddr, "path", r.URL.Path)
			}
			http.Error(w, hostRefused(r.Host), http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
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
