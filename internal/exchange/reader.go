package exchange

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/dynago/dynago/attr"
)

// Format is a data file's format, named as ImportTable's InputFormat and
// ExportTableToPointInTime's ExportFormat name them.
type Format string

const (
	FormatDynamoDBJSON Format = "DYNAMODB_JSON"
	FormatION          Format = "ION"
	FormatCSV          Format = "CSV" // import only
)

// Compression is a data file's compression, named as ImportTable's
// InputCompressionType names it.
type Compression string

const (
	CompressionNone Compression = "NONE"
	CompressionGzip Compression = "GZIP"
	CompressionZstd Compression = "ZSTD"
)

// CSVOptions are ImportTable's InputFormatOptions.Csv, and the key types
// the table declares.
type CSVOptions struct {
	// Delimiter separates values: one of , \t : ; | and space (API
	// reference, CsvOptions). Zero means a comma.
	Delimiter rune
	// Header names the columns of every file, whose first line is then
	// data. Empty means each file's first line is its header.
	Header []string
	// KeyTypes gives the type (S, N or B) of the key attributes of the
	// table and of its secondary indexes: those columns take it; every
	// other column is read as a string (developer guide, "Amazon S3
	// import formats for DynamoDB", CSV).
	KeyTypes map[string]attr.Type
}

// ReadOptions says how to read a data file.
type ReadOptions struct {
	Format      Format
	Compression Compression
	CSV         CSVOptions
}

// Record is one line of a data file: an item, or in an incremental
// export a change (Item nil).
type Record struct {
	Item   attr.Item
	Change *Change
	// File and Line locate the record: the object's key and the 1-based
	// line it starts on.
	File string
	Line int
}

// Change is a line of an incremental export: an item's keys, its image
// after the change (nil for a deletion) and, with NEW_AND_OLD_IMAGES,
// before it (nil for an insertion), and when it was written.
type Change struct {
	Keys                 attr.Item
	NewImage             attr.Item
	OldImage             attr.Item
	WriteTimestampMicros int64
}

// LineError is a bad line: the reader reports it and goes on with the
// next one, as ImportTable counts bad items and imports the others.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader yields a data file's records one at a time.
type Reader struct {
	file  string
	opts  ReadOptions
	close func() error

	// DynamoDB JSON and CSV
	br   *bufio.Reader
	line int

	csv     *csv.Reader
	header  []string
	started bool

	ion    *ionParser
	ionEOF bool
}

// maxLine bounds one line of DynamoDB JSON: well past what an item of
// 400 KB written in base64 and escapes takes.
const maxLine = 16 << 20

// NewReader reads the data file r (named file in errors) as opts say. It
// decompresses r itself. Close releases the decompressor.
func NewReader(r io.Reader, file string, opts ReadOptions) (*Reader, error) {
	rd := &Reader{file: file, opts: opts, close: func() error { return nil }}
	switch opts.Compression {
	case "", CompressionNone:
	case CompressionGzip:
		zr, err := gzip.NewReader(r)
		if err != nil {
			if errors.Is(err, io.EOF) { // an empty object: no items
				r = strings.NewReader("")
				break
			}
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		r = zr
		rd.close = zr.Close
	case CompressionZstd:
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		r = zr
		rd.close = func() error { zr.Close(); return nil }
	default:
		return nil, fmt.Errorf("unknown compression %q: want NONE, GZIP or ZSTD", opts.Compression)
	}
	switch opts.Format {
	case FormatDynamoDBJSON:
		rd.br = bufio.NewReaderSize(r, 64<<10)
	case FormatION:
		rd.br = bufio.NewReaderSize(r, 64<<10)
		rd.ion = &ionParser{line: 1}
	case FormatCSV:
		d := opts.CSV.Delimiter
		if d == 0 {
			d = ','
		}
		if !strings.ContainsRune(",\t:;| ", d) {
			return nil, fmt.Errorf("CSV delimiter %q: want one of , \\t : ; | or space", d)
		}
		rd.csv = csv.NewReader(r)
		rd.csv.Comma = d
		rd.csv.FieldsPerRecord = -1
		rd.csv.ReuseRecord = false
		rd.header = opts.CSV.Header
	default:
		return nil, fmt.Errorf("unknown format %q: want DYNAMODB_JSON, ION or CSV", opts.Format)
	}
	return rd, nil
}

// Close releases the reader's decompressor.
func (r *Reader) Close() error { return r.close() }

// Next returns the next record, io.EOF at the end, a *LineError for a bad
// line (call Next again for the following ones), or another error when
// the file cannot be read further.
func (r *Reader) Next() (Record, error) {
	switch {
	case r.ion != nil:
		return r.nextIon()
	case r.br != nil:
		return r.nextJSON()
	default:
		return r.nextCSV()
	}
}

func (r *Reader) lineError(line int, err error) (Record, error) {
	return Record{}, &LineError{File: r.file, Line: line, Err: err}
}

func (r *Reader) nextJSON() (Record, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return Record{}, err
		}
		r.line++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(line) > maxLine {
			return r.lineError(r.line, fmt.Errorf("line longer than %d bytes", maxLine))
		}
		rec, perr := parseJSONRecord(line)
		if perr != nil {
			return r.lineError(r.line, perr)
		}
		rec.File, rec.Line = r.file, r.line
		return rec, nil
	}
}

// readLine reads a line without its end, io.EOF after the last. A line
// past maxLine is read to its end but returned cut, to be reported.
func (r *Reader) readLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine+1 {
			buf = append(buf, chunk...)
		}
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(buf) == 0 {
				return nil, io.EOF
			}
			return bytes.TrimRight(buf, "\r\n"), nil
		default:
			return nil, fmt.Errorf("%s: %w", r.file, err)
		}
	}
}

// parseJSONRecord reads one line of DynamoDB JSON: {"Item":{...}}, or an
// incremental export's {"Metadata":...,"Keys":...,"NewImage":...,"OldImage":...}.
func parseJSONRecord(line []byte) (Record, error) {
	var top map[string]jsonRaw
	if err := unmarshalObject(line, &top); err != nil {
		return Record{}, err
	}
	if raw, ok := top["Item"]; ok {
		if len(top) != 1 {
			return Record{}, errors.New(`a line holds "Item" and other members`)
		}
		it, err := ParseItemJSON(raw)
		if err != nil {
			return Record{}, err
		}
		return Record{Item: it}, nil
	}
	if _, ok := top["Keys"]; ok {
		c, err := parseJSONChange(top)
		if err != nil {
			return Record{}, err
		}
		return Record{Change: c}, nil
	}
	return Record{}, errors.New(`a line must be {"Item":{...}} or an incremental export's {"Keys":...}`)
}

func parseJSONChange(top map[string]jsonRaw) (*Change, error) {
	c := &Change{}
	for name, raw := range top {
		var err error
		switch name {
		case "Keys":
			c.Keys, err = ParseItemJSON(raw)
		case "NewImage":
			c.NewImage, err = ParseItemJSON(raw)
		case "OldImage":
			c.OldImage, err = ParseItemJSON(raw)
		case "Metadata":
			c.WriteTimestampMicros, err = parseJSONMetadata(raw)
		default:
			err = errors.New("unknown member")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return c, nil
}

func parseJSONMetadata(raw jsonRaw) (int64, error) {
	it, err := ParseItemJSON(raw)
	if err != nil {
		return 0, err
	}
	v, ok := it["WriteTimestampMicros"]
	if !ok {
		return 0, nil
	}
	if v.Type != attr.TypeN {
		return 0, errMicrosType
	}
	return parseMicros(v.S)
}

// ionChunk is how much Ion text is read ahead, in whole lines.
const ionChunk = 256 << 10

// fillIon appends whole lines to the parser's text until want bytes
// are buffered past its position, or the input ends; it drops the text
// already parsed first.
func (r *Reader) fillIon(want int) error {
	p := r.ion
	if p.pos > 0 {
		p.s = append(p.s[:0], p.s[p.pos:]...)
		p.pos = 0
	}
	for !r.ionEOF && len(p.s) < want {
		line, err := r.br.ReadSlice('\n')
		p.s = append(p.s, line...)
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			r.ionEOF = true
		default:
			return fmt.Errorf("%s: %w", r.file, err)
		}
	}
	return nil
}

// nextIon parses the next top-level value. The text is read a chunk of
// whole lines at a time; a value the chunk cuts short is parsed again
// with more. (A long string split in '\'\'\” segments across a chunk's
// last line may read as two values.)
func (r *Reader) nextIon() (Record, error) {
	want := ionChunk
	for {
		if err := r.fillIon(want); err != nil {
			return Record{}, err
		}
		startPos, startLine := r.ion.pos, r.ion.line
		rec, short, err := r.parseIon()
		if short && !r.ionEOF && len(r.ion.s)-startPos < maxLine {
			r.ion.pos, r.ion.line = startPos, startLine
			want = 2 * (len(r.ion.s) - startPos)
			continue
		}
		return rec, err
	}
}

// parseIon parses one value from the buffered text; short reports a
// syntax error at the end of the text.
func (r *Reader) parseIon() (rec Record, short bool, err error) {
	// A syntax error skips to the line after the one the value started
	// on: DynamoDB's export writes a value a line, so the next line most
	// likely starts the next value.
	startPos, line := r.ion.pos, r.ion.line
	defer func() {
		if e := recover(); e != nil {
			se, ok := e.(*ionSyntaxError)
			if !ok {
				panic(e)
			}
			short = se.short
			r.ion.pos, r.ion.line = startPos, line
			r.ion.skipLine()
			rec, err = r.lineError(line, fmt.Errorf("Ion syntax (line %d): %s", se.line, se.msg))
		}
	}()
	r.ion.skipSpace()
	startPos, line = r.ion.pos, r.ion.line
	v, at, ok := r.ion.next()
	if !ok {
		return Record{}, false, io.EOF
	}
	rec, perr := ionRecord(v)
	if perr != nil {
		rec, err = r.lineError(at, perr)
		return rec, false, err
	}
	rec.File, rec.Line = r.file, at
	return rec, false, nil
}

// ionRecord reads one top-level Ion value: {Item:{...}}, or an
// incremental export's {Keys:...,NewImage:...,OldImage:...,Metadata:...}.
func ionRecord(v ionValue) (Record, error) {
	if v.kind != ionStruct || len(v.annots) != 0 {
		return Record{}, errors.New("a record must be a struct {Item:{...}}")
	}
	var rec Record
	fields := map[string]ionValue{}
	for _, f := range v.fields {
		if _, dup := fields[f.name]; dup {
			return Record{}, fmt.Errorf("field %q appears twice", f.name)
		}
		fields[f.name] = f.v
	}
	check := func(v ionValue) (attr.Item, error) {
		it, err := itemFromIon(v)
		if err != nil {
			return nil, err
		}
		if err := checkUTF8(it); err != nil {
			return nil, err
		}
		if err := attr.CanonicalizeItem(it); err != nil {
			return nil, err
		}
		return it, nil
	}
	if iv, ok := fields["Item"]; ok {
		if len(fields) != 1 {
			return Record{}, errors.New("a record holds Item and other fields")
		}
		it, err := check(iv)
		if err != nil {
			return Record{}, fmt.Errorf("Item: %w", err)
		}
		rec.Item = it
		return rec, nil
	}
	if _, ok := fields["Keys"]; !ok {
		return Record{}, errors.New("a record must be {Item:{...}} or an incremental export's {Keys:...}")
	}
	c := &Change{}
	for name, fv := range fields {
		var err error
		switch name {
		case "Keys":
			c.Keys, err = check(fv)
		case "NewImage":
			c.NewImage, err = check(fv)
		case "OldImage":
			c.OldImage, err = check(fv)
		case "Metadata":
			var md attr.Item
			md, err = itemFromIon(fv)
			if err == nil {
				if ts, ok := md["WriteTimestampMicros"]; ok {
					if ts.Type != attr.TypeN {
						err = errMicrosType
					} else {
						c.WriteTimestampMicros, err = parseMicros(ts.S)
					}
				}
			}
		default:
			err = errors.New("unknown field")
		}
		if err != nil {
			return Record{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	rec.Change = c
	return rec, nil
}

var errMicrosType = errors.New("WriteTimestampMicros must be a number")

func parseMicros(s string) (int64, error) {
	n, err := attr.NormalizeNumber(s)
	if err != nil {
		return 0, err
	}
	var v int64
	if _, err := fmt.Sscan(n, &v); err != nil || fmt.Sprint(v) != n {
		return 0, fmt.Errorf("WriteTimestampMicros %s is not a whole number of microseconds", s)
	}
	return v, nil
}

func (r *Reader) nextCSV() (Record, error) {
	for {
		fields, err := r.csv.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return Record{}, io.EOF
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return r.lineError(pe.StartLine, pe.Err)
			}
			return Record{}, fmt.Errorf("%s: %w", r.file, err)
		}
		line, _ := r.csv.FieldPos(0)
		if r.header == nil {
			r.header = fields
			if err := checkHeader(fields); err != nil {
				return Record{}, &LineError{File: r.file, Line: line, Err: err}
			}
			continue
		}
		if len(fields) != len(r.header) {
			return r.lineError(line, fmt.Errorf("%d values for %d columns", len(fields), len(r.header)))
		}
		it := make(attr.Item, len(fields))
		for i, name := range r.header {
			v, err := csvValue(name, fields[i], r.opts.CSV.KeyTypes)
			if err != nil {
				return r.lineError(line, err)
			}
			it[name] = v
		}
		if err := checkUTF8(it); err != nil {
			return r.lineError(line, err)
		}
		if err := attr.CanonicalizeItem(it); err != nil {
			return r.lineError(line, err)
		}
		return Record{Item: it, File: r.file, Line: line}, nil
	}
}

func checkHeader(h []string) error {
	seen := map[string]bool{}
	for _, n := range h {
		if n == "" {
			return errors.New("the header names an empty column")
		}
		if seen[n] {
			return fmt.Errorf("the header names column %q twice", n)
		}
		seen[n] = true
	}
	return nil
}

// csvValue reads a CSV field: a key attribute as its declared type, any
// other as a string.
func csvValue(name, s string, keys map[string]attr.Type) (attr.Value, error) {
	t, isKey := keys[name]
	if !isKey {
		return attr.S(s), nil
	}
	var v attr.Value
	switch t {
	case attr.TypeN:
		v = attr.N(s)
	case attr.TypeB:
		b, err := decodeBase64(s)
		if err != nil {
			return attr.Value{}, fmt.Errorf("key attribute %q: not base64", name)
		}
		v = attr.B(b)
	default:
		v = attr.S(s)
	}
	if err := v.Canonicalize(); err != nil {
		return attr.Value{}, fmt.Errorf("key attribute %q: %w", name, err)
	}
	if err := attr.ValidateKeyValue(name, v, false); err != nil {
		return attr.Value{}, err
	}
	return v, nil
}

// checkUTF8 refuses an item with a name or string that is not UTF-8:
// DynamoDB's strings are UTF-8 (JSON input is made valid by its decoder).
func checkUTF8(m map[string]attr.Value) error {
	for name, v := range m {
		if !utf8.ValidString(name) {
			return fmt.Errorf("attribute name %q is not UTF-8", name)
		}
		if err := checkValueUTF8(v); err != nil {
			return fmt.Errorf("attribute %q: %w", name, err)
		}
	}
	return nil
}

func checkValueUTF8(v attr.Value) error {
	switch v.Type {
	case attr.TypeS:
		if !utf8.ValidString(v.S) {
			return errors.New("a string is not UTF-8")
		}
	case attr.TypeSS:
		for _, s := range v.SS {
			if !utf8.ValidString(s) {
				return errors.New("a string is not UTF-8")
			}
		}
	case attr.TypeM:
		return checkUTF8(v.M)
	case attr.TypeL:
		for _, e := range v.L {
			if err := checkValueUTF8(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// OnClose adds f to what r's Close does, after what it did: to close the
// object r reads.
func OnClose(r *Reader, f func() error) {
	inner := r.close
	r.close = func() error {
		err := inner()
		if ferr := f(); err == nil {
			err = ferr
		}
		return err
	}
}
