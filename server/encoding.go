package server

import (
	"bufio"
	"compress/gzip"
	"compress/zlib"
	"io"
	"runtime"
	"strconv"
	"strings"
)

// compressThreshold is the size from which a response is compressed when
// the client's Accept-Encoding allows it: DynamoDB compresses responses of
// 4 KiB and more (recorded against DynamoDB by ScyllaDB Alternator's
// test/alternator/test_compressed_response.py).
const compressThreshold = 4096

// Content codings, of requests and of responses. DynamoDB knows gzip and
// deflate (the zlib format, RFC 9110 8.4.1.2) and nothing else.
const (
	codingGzip    = "gzip"
	codingDeflate = "deflate"
)

// responseCoding picks the coding of a response from the request's
// Accept-Encoding header, as DynamoDB does (each rule below was recorded
// against DynamoDB in Alternator's test_compressed_response.py): only the
// first Accept-Encoding header counts, when a request has several; names
// are case-insensitive and must be exactly gzip, deflate or *; a
// coding's weight is read from its first parameter holding "q=" (so
// "q =0" is no weight and "nq=0" is one; see parseWeight); a q over 1 is
// 1, one that is not a number is 1, a negative one is 0; a coding of
// weight 0 is refused; "*" stands for gzip and deflate where they are
// not named; identity is ignored. The coding of highest weight wins; on a
// tie a named coding beats one given by "*", then the one named first,
// and gzip beats deflate when both come from "*". "" means no
// compression.
func responseCoding(values []string) string {
	if len(values) == 0 {
		return ""
	}
	type choice struct {
		q     float64
		pos   int
		named bool
		set   bool
	}
	var gz, df, star choice
	for i, part := range strings.Split(values[0], ",") {
		params := strings.Split(part, ";")
		name := strings.ToLower(strings.TrimSpace(params[0]))
		var c *choice
		switch name {
		case codingGzip:
			c = &gz
		case codingDeflate:
			c = &df
		case "*":
			c = &star
		default:
			continue
		}
		q := parseWeight(params[1:])
		// A coding named more than once takes its highest weight.
		if !c.set || q > c.q {
			*c = choice{q: q, pos: i, named: name != "*", set: true}
		}
	}
	for _, c := range []*choice{&gz, &df} {
		if !c.set && star.set {
			*c = choice{q: star.q, pos: star.pos, set: true}
		}
	}
	if !gz.set || gz.q <= 0 {
		if df.set && df.q > 0 {
			return codingDeflate
		}
		return ""
	}
	if !df.set || df.q <= 0 || gz.q > df.q {
		return codingGzip
	}
	if df.q > gz.q {
		return codingDeflate
	}
	switch {
	case gz.named != df.named:
		if df.named {
			return codingDeflate
		}
		return codingGzip
	case df.pos < gz.pos:
		return codingDeflate
	}
	return codingGzip
}

// parseWeight reads a coding's weight from its parameters, as DynamoDB
// reads it (Alternator's test_compressed_response.py, recorded against
// DynamoDB): the first parameter that holds "q=" anywhere gives it, from
// the text after that "q=", spaces trimmed. So "q= 0" and " q=0" weigh
// 0; "q =0" holds no "q=" and is passed over; "nq=0" holds one and
// weighs 0; of "q=1;q=0.2" the first counts. Without such a parameter
// the weight is 1.
func parseWeight(params []string) float64 {
	for _, p := range params {
		if i := strings.Index(p, "q="); i >= 0 {
			return parseQ(strings.TrimSpace(p[i+len("q="):]))
		}
	}
	return 1
}

// parseQ reads a q value: "0." is 0, a number over 1 is 1, a negative
// one 0, and one that does not parse 1 (so "q=0.x" still accepts).
func parseQ(v string) float64 {
	q, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil:
		return 1
	case q > 1:
		return 1
	case q < 0:
		return 0
	}
	return q
}

// Compressors hold about 1.3 MB of state each (flate's window, hash
// chains and encoder tables, whatever the level). At most maxCompressors
// compress at once, and as many are kept between answers; the rest wait
// their turn, which costs no throughput (compressing is CPU-bound). A
// sync.Pool would keep one for every answer compressed at once (300 at
// once would be 390 MB), and a pool outlives the collection that returns
// memory to the OS after a burst.
var (
	maxCompressors = max(2, runtime.GOMAXPROCS(0))
	compressSlots  = make(chan struct{}, maxCompressors)
	gzipWriters    = make(chan *gzip.Writer, maxCompressors)
	zlibWriters    = make(chan *zlib.Writer, maxCompressors)
)

// appendWriter appends what is written to b.
type appendWriter struct{ b []byte }

func (a *appendWriter) Write(p []byte) (int, error) { a.b = append(a.b, p...); return len(p), nil }

// compress appends body compressed with coding to dst. Level 1 (best
// speed): answers up to 16 MB are compressed on the request's goroutine.
func compress(dst []byte, coding string, body []byte) []byte {
	compressSlots <- struct{}{}
	defer func() { <-compressSlots }()
	out := &appendWriter{b: dst}
	switch coding {
	case codingGzip:
		var zw *gzip.Writer
		select {
		case zw = <-gzipWriters:
			zw.Reset(out)
		default:
			zw, _ = gzip.NewWriterLevel(out, gzip.BestSpeed)
		}
		zw.Write(body)
		zw.Close()
		zw.Reset(nil)
		select {
		case gzipWriters <- zw:
		default:
		}
	case codingDeflate:
		var zw *zlib.Writer
		select {
		case zw = <-zlibWriters:
			zw.Reset(out)
		default:
			zw, _ = zlib.NewWriterLevel(out, zlib.BestSpeed)
		}
		zw.Write(body)
		zw.Close()
		zw.Reset(nil)
		select {
		case zlibWriters <- zw:
		default:
		}
	}
	return out.b
}

// requestCoding reads a request's Content-Encoding: "" for none or
// identity, gzip or deflate, or ok false for any other.
func requestCoding(v string) (coding string, ok bool) {
	switch v = strings.ToLower(strings.TrimSpace(v)); v {
	case "", "identity":
		return "", true
	case codingGzip, codingDeflate:
		return v, true
	}
	return "", false
}

// gzipMembers decodes a gzip body of one or more members (RFC 1952 2.2).
// Bytes after a complete member that do not start another are ignored,
// as DynamoDB ignores them (Alternator's test_compressed_request.py,
// test_gzip_request_with_extra_junk, records DynamoDB accepting such a
// body); a member cut short is an error.
type gzipMembers struct {
	br *bufio.Reader
	zr *gzip.Reader
}

func newGzipMembers(src io.Reader) (*gzipMembers, error) {
	br := bufio.NewReaderSize(src, 4096)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipMembers{br: br, zr: zr}, nil
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if b, perr := g.br.Peek(2); perr != nil || b[0] != 0x1f || b[1] != 0x8b {
			return n, io.EOF
		}
		if err := g.zr.Reset(g.br); err != nil {
			return n, err
		}
		g.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

func (g *gzipMembers) Close() error { return g.zr.Close() }
