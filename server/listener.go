package server

import (
	"bytes"
	"net"
	"net/http"
	"strconv"
	"time"
)

// MaxHeaderBytes is what an http.Server in front of a Server should set
// as http.Server.MaxHeaderBytes. net/http reads up to 4 KiB more than it,
// so a request line and headers of up to 16 KiB are read and longer ones
// refused: DynamoDB's limit ("DynamoDB's server limits the total header
// size to just 16 KB. Above that, the request is failed with a '400 Bad
// Request' error", https://github.com/scylladb/scylladb/issues/23438).
// AWS SDKs send about 1 KiB (2 to 3 KiB with a session token).
const MaxHeaderBytes = 16<<10 - 4096

// Listener wraps l, the listener of an http.Server serving a Server, so
// that what net/http answers by itself, before a request reaches the
// Server, is what DynamoDB answers: a request line and headers over the
// limit get HTTP 400 Bad Request, with DynamoDB's headers, where net/http
// says 431 (DynamoDB's status for a URL of 17,000 bytes is recorded in
// https://github.com/scylladb/scylladb/pull/23442, and for long headers
// in issue #23438). The connection is closed after it, as net/http does.
func Listener(l net.Listener) net.Listener { return frontListener{l} }

type frontListener struct{ net.Listener }

func (l frontListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &frontConn{Conn: c}, nil
}

// frontConn rewrites the one answer net/http writes to the connection
// itself for oversized headers. net/http writes it in one Write, straight
// to the connection (never through a handler's buffered writer), so a
// Write that starts with its status line is that answer and nothing else.
type frontConn struct{ net.Conn }

// netHTTP431 is how net/http's answer to oversized headers starts.
var netHTTP431 = []byte("HTTP/1.1 431 Request Header Fields Too Large\r\n")

// badRequestBody is the body of the 400 for oversized headers; DynamoDB's
// own body is not recorded.
const badRequestBody = "Bad Request: the request line and headers exceed 16 KiB\n"

func (c *frontConn) Write(p []byte) (int, error) {
	if !bytes.HasPrefix(p, netHTTP431) {
		return c.Conn.Write(p)
	}
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 400 Bad Request\r\nServer: Server\r\nDate: ")
	b.WriteString(time.Now().UTC().Format(http.TimeFormat))
	b.WriteString("\r\nx-amzn-RequestId: ")
	b.WriteString(newRequestID())
	b.WriteString("\r\nContent-Type: text/plain\r\nContent-Length: ")
	b.WriteString(strconv.Itoa(len(badRequestBody)))
	b.WriteString("\r\nConnection: close\r\n\r\n")
	b.WriteString(badRequestBody)
	if _, err := c.Conn.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite half-closes the connection when it can, which net/http
// does after an answer to oversized headers so the client reads it.
func (c *frontConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
