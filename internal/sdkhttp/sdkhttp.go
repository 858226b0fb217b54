// Package sdkhttp holds the HTTP client dynago's own SDK clients use when
// they turn retries off (tests and the load generator), so a failed call
// shows instead of being retried.
//
// It works around a client-side race of aws-sdk-go-v2 with net/http. The
// SDK closes a request's body as soon as Do returns, and its closed body's
// WriteTo reports io.EOF as an error. net/http, once it has written
// Content-Length bytes, drains the body to check nothing is left, through
// WriteTo if the body has one; when the response has come back first, the
// drain fails and the transport closes the connection, under the SDK still
// reading the response ("use of closed network connection"), or before the
// next call reuses it. The SDK's default retryer hides this; with retries
// off it shows as spurious errors. Hiding WriteTo makes the drain an
// ordinary Read, which ends in a plain io.EOF.
package sdkhttp

import (
	"io"
	"net/http"
)

// Client wraps an *http.Client (nil: http.DefaultClient) for the SDK's
// HTTPClient option.
type Client struct{ HC *http.Client }

// Do sends req with its body reduced to a plain io.ReadCloser.
func (c Client) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = readOnlyBody{req.Body}
	}
	hc := c.HC
	if hc == nil {
		hc = http.DefaultClient
	}
	return hc.Do(req)
}

// readOnlyBody has the methods of an io.ReadCloser and no other.
type readOnlyBody struct{ io.ReadCloser }
