package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// gzipReserve is what a gzip decoder holds while it decodes a body (its
// 32 KiB window and Huffman tables), taken from the budget.
const gzipReserve = 48 << 10

// perSourceBytes is the budget share of one source address for cfg,
// whose MaxBufferBytes and MaxBodyBytes have their defaults: by default a
// quarter of the budget, never less than one largest request and answer
// need, nor more than the budget.
func perSourceBytes(cfg Config) int64 {
	n := cfg.MaxBufferBytesPerSource
	if n <= 0 {
		n = cfg.MaxBufferBytes / 4
	}
	n = max(n, MinBufferBytes(cfg.MaxBodyBytes))
	return min(n, cfg.MaxBufferBytes)
}

// readBody reads the request body into c.body, decoding gzip and
// enforcing the size limit without reading past it.
//
// With Auth, what of the signature can be checked from the headers is
// checked before any of the body is read (sigv4.Verifier.Precheck): all
// of it when the request declares its payload's hash, else all but the
// signature itself. An unsigned request, or one signed by an unknown key,
// is answered without its body, so it holds no buffer.
//
// Memory: the body's buffer starts at a pooled 4 KiB, taken from the
// budget (with gzip, the decoder's state too), waiting up to the throttle
// wait for it (the request holds nothing else then). As bytes arrive the
// buffer doubles, never past the announced Content-Length, and each
// growth is taken from the budget before it is allocated: at once if the
// budget and the source's share have room, else waiting up to the
// throttle wait, or the request is throttled. So a body holds about what
// has arrived, at most twice it: a client that announces 16 MB and sends
// a few bytes holds 4 KiB, and one that trickles a body holds no more
// than its source's share.
//
// With a body timeout, the client must deliver the whole body in time;
// past it the read fails with os.ErrDeadlineExceeded, and the deadline
// stays so that net/http closes the connection instead of waiting to
// discard the rest.
func (s *Server) readBody(c *inflight) error {
	r := c.r
	if r.ContentLength > s.max {
		return errTooLarge
	}
	limit := s.max + 1
	coding, ok := requestCoding(r.Header.Get("Content-Encoding"))
	if !ok {
		return errBadCoding
	}
	if s.auth != nil {
		if aerr := s.auth.Precheck(r, s.auth.Now()); aerr != nil {
			return aerr
		}
	}
	gz := coding != ""
	hint := limit // the most the buffer may need
	if !gz && r.ContentLength >= 0 {
		hint = r.ContentLength + 1 // room to read the end of the body
	}
	buf := getBuf()
	c.body = buf
	bufHeld := int64(cap(buf)) // the budget held for buf
	reserve := bufHeld
	if gz {
		reserve += gzipReserve
	}
	if err := s.take(c, reserve); err != nil {
		return err
	}
	c.bodyHeld = reserve

	rc := http.NewResponseController(c.w)
	if s.bodyTimeout > 0 {
		rc.SetReadDeadline(time.Now().Add(s.bodyTimeout))
	}
	var src io.Reader = http.MaxBytesReader(nil, r.Body, limit)
	if c.rawHash != nil {
		// The signature covers the body as sent, compressed.
		src = io.TeeReader(src, c.rawHash)
	}
	if gz {
		zr, err := newDecoder(coding, src)
		if err != nil {
			return decodeFailure(err)
		}
		defer zr.Close()
		src = io.LimitReader(zr, limit)
	}
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				return s.overLimit(gz)
			}
			// Double, but never past what the body can still need.
			next := min(max(2*int64(cap(buf)), 4096), hint, limit)
			if next <= int64(cap(buf)) {
				next = min(2*int64(cap(buf)), limit)
			}
			if extra := next - bufHeld; extra > 0 {
				if err := s.grow(c, extra); err != nil {
					return err
				}
				bufHeld += extra
			}
			nb := make([]byte, len(buf), next)
			copy(nb, buf)
			putBuf(buf)
			buf = nb
			c.body = buf
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		c.body = buf
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return errTooLarge
			}
			if gz {
				return decodeFailure(err)
			}
			return err
		}
	}
	if int64(len(buf)) > s.max {
		return s.overLimit(gz)
	}
	if s.bodyTimeout > 0 {
		rc.SetReadDeadline(time.Time{})
	}
	return nil
}

// grow takes n more bytes of the budget for c's body: at once when they
// are free, else waiting up to the throttle wait. A request waiting here
// holds its body so far; should every request hold part of a body and
// wait for more, the first to time out is throttled and lets the next in
// line through.
func (s *Server) grow(c *inflight, n int64) error {
	if !s.budget.tryAcquire(c.src, n) {
		if err := s.take(c, n); err != nil {
			return err
		}
		c.bodyHeld += n
		return nil
	}
	c.held += n
	c.bodyHeld += n
	return nil
}

// needsRawHash reports whether the request's body arrives compressed, so
// that its signature must be checked against the bytes as sent rather
// than the body decoded.
func (c *inflight) needsRawHash() bool {
	coding, ok := requestCoding(c.r.Header.Get("Content-Encoding"))
	return ok && coding != ""
}

// errTooLarge reports a request body over the size limit.
var errTooLarge = errors.New("request body too large")

// overLimit is the error of a body found over the size limit as it is
// read: errTooLarge (HTTP 413) for the bytes as sent, and for a
// compressed body that the limit admits but that decompresses past it,
// HTTP 500 InternalServerError, DynamoDB's answer to it (ScyllaDB
// Alternator's test/alternator/test_compressed_request.py,
// test_gzip_request_oversized, run against DynamoDB: "DynamoDB currently
// returns 500"). The message is dynago's.
func (s *Server) overLimit(compressed bool) error {
	if !compressed {
		return errTooLarge
	}
	return dynamo.InternalServerErrorText(fmt.Sprintf("Unable to decode the request body: it exceeds %d bytes once decompressed", s.max))
}
