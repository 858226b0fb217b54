package exchange

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dynago/dynago/attr"
)

// Amazon Ion text, as DynamoDB's export writes it and its import reads
// it (developer guide, "DynamoDB table export output format", Ion): one
// top-level struct a line after the version marker, DynamoDB's types
// mapped to Ion's:
//
//	S     string            "x"
//	N     decimal           103.  6d2  1.5
//	B     blob              {{AAE=}}
//	BOOL  bool              true
//	NULL  null              null
//	M     struct            {a:"x"}
//	L     list              ["x",1.]
//	SS    annotated list    $dynamodb_SS::["a","b"]
//	NS    annotated list    $dynamodb_NS::[1.,2.]
//	BS    annotated list    $dynamodb_BS::[{{AA==}}]

// ionVersionMarker starts an Ion text stream.
const ionVersionMarker = "$ion_1_0"

// Set annotations.
const (
	ionAnnotSS = "$dynamodb_SS"
	ionAnnotNS = "$dynamodb_NS"
	ionAnnotBS = "$dynamodb_BS"
)

// appendIonStruct appends m as an Ion struct, fields in byte order.
func appendIonStruct(dst []byte, m map[string]attr.Value) []byte {
	dst = append(dst, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendIonSymbol(dst, k)
		dst = append(dst, ':')
		dst = appendIonValue(dst, m[k])
	}
	return append(dst, '}')
}

// appendIonValue appends v in Ion text.
func appendIonValue(dst []byte, v attr.Value) []byte {
	switch v.Type {
	case attr.TypeS:
		return appendIonString(dst, v.S)
	case attr.TypeN:
		return appendIonDecimal(dst, v.S)
	case attr.TypeB:
		return appendIonBlob(dst, v.B)
	case attr.TypeBOOL:
		return strconv.AppendBool(dst, v.Bool)
	case attr.TypeNULL:
		return append(dst, "null"...)
	case attr.TypeM:
		return appendIonStruct(dst, v.M)
	case attr.TypeL:
		dst = append(dst, '[')
		for i, e := range v.L {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendIonValue(dst, e)
		}
		return append(dst, ']')
	case attr.TypeSS, attr.TypeNS:
		annot, each := ionAnnotSS, appendIonString
		if v.Type == attr.TypeNS {
			annot, each = ionAnnotNS, appendIonDecimal
		}
		dst = append(dst, annot...)
		dst = append(dst, "::["...)
		for i, s := range v.SS {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = each(dst, s)
		}
		return append(dst, ']')
	case attr.TypeBS:
		dst = append(dst, ionAnnotBS...)
		dst = append(dst, "::["...)
		for i, b := range v.BS {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendIonBlob(dst, b)
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}

func appendIonBlob(dst []byte, b []byte) []byte {
	dst = append(dst, '{', '{')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '}', '}')
}

// appendIonDecimal appends a number's text as an Ion decimal: a whole
// number keeps its digits with a final point, or moves its trailing
// zeros to an exponent (600 is 6d2), as the developer guide's example
// shows; a fraction is written as it is (1.5). Text with an exponent
// (never canonical, but accepted) gets Ion's 'd'.
func appendIonDecimal(dst []byte, n string) []byte {
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		m := n[:i]
		dst = append(dst, m...)
		dst = append(dst, 'd')
		return append(dst, strings.TrimPrefix(n[i+1:], "+")...)
	}
	if strings.IndexByte(n, '.') >= 0 {
		return append(dst, n...)
	}
	digits := strings.TrimRight(n, "0")
	zeros := len(n) - len(digits)
	if zeros == 0 || digits == "" || digits == "-" {
		dst = append(dst, n...)
		return append(dst, '.')
	}
	dst = append(dst, digits...)
	dst = append(dst, 'd')
	return strconv.AppendInt(dst, int64(zeros), 10)
}

// appendIonString appends s as an Ion string.
func appendIonString(dst []byte, s string) []byte {
	return appendIonQuoted(dst, s, '"')
}

// appendIonSymbol appends a field name: bare when it is an identifier
// Ion reads back as the same symbol, else quoted.
func appendIonSymbol(dst []byte, s string) []byte {
	if isIonIdentifier(s) {
		return append(dst, s...)
	}
	return appendIonQuoted(dst, s, '\'')
}

func isIonIdentifier(s string) bool {
	if s == "" || s[0] == '$' {
		return false
	}
	switch s {
	case "null", "true", "false", "nan":
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func appendIonQuoted(dst []byte, s string, q byte) []byte {
	dst = append(dst, q)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == q || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, q)
}

// ionValue is a parsed Ion value, before it is read as a DynamoDB value.
type ionValue struct {
	kind   ionKind
	annots []string
	text   string // string, symbol, number text
	b      []byte // blob, clob
	bool   bool
	fields []ionField // struct
	list   []ionValue // list
}

type ionField struct {
	name string
	v    ionValue
}

type ionKind uint8

const (
	ionNull ionKind = iota
	ionBool
	ionInt
	ionDecimal
	ionFloat
	ionString
	ionSymbol
	ionBlob
	ionStruct
	ionList
)

// ionParser reads Ion text values one at a time.
type ionParser struct {
	s    []byte
	pos  int
	line int // 1-based line of pos
}

type ionSyntaxError struct {
	line int
	msg  string
	// short: the input ended first, so more of it may complete the value.
	short bool
}

func (e *ionSyntaxError) Error() string { return e.msg }

func (p *ionParser) fail(format string, args ...any) {
	panic(&ionSyntaxError{line: p.line, msg: fmt.Sprintf(format, args...), short: p.pos >= len(p.s)})
}

// skipSpace skips whitespace and comments.
func (p *ionParser) skipSpace() {
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			p.pos++
		case c == '/' && p.pos+1 < len(p.s) && p.s[p.pos+1] == '/':
			for p.pos < len(p.s) && p.s[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.s) && p.s[p.pos+1] == '*':
			end := strings.Index(string(p.s[p.pos+2:]), "*/")
			if end < 0 {
				panic(&ionSyntaxError{line: p.line, msg: "unterminated comment", short: true})
			}
			p.line += strings.Count(string(p.s[p.pos:p.pos+2+end]), "\n")
			p.pos += end + 4
		default:
			return
		}
	}
}

// next parses one top-level value, or reports false at the end. A
// syntax error panics with *ionSyntaxError (caught by the caller).
func (p *ionParser) next() (ionValue, int, bool) {
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return ionValue{}, p.line, false
		}
		line := p.line
		v := p.value(0)
		if v.kind == ionSymbol && len(v.annots) == 0 && v.text == ionVersionMarker {
			continue
		}
		return v, line, true
	}
}

// skipLine moves past the rest of the current line, to recover after a
// syntax error.
func (p *ionParser) skipLine() {
	for p.pos < len(p.s) && p.s[p.pos] != '\n' {
		p.pos++
	}
	if p.pos < len(p.s) {
		p.pos++
		p.line++
	}
}

func (p *ionParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// value parses a value with its annotations.
func (p *ionParser) value(depth int) ionValue {
	if depth > maxJSONDepth {
		p.fail("nested too deep")
	}
	var annots []string
	for {
		p.skipSpace()
		start := p.pos
		startLine := p.line
		sym, ok := p.maybeSymbol()
		if !ok {
			break
		}
		p.skipSpace()
		if strings.HasPrefix(string(p.s[p.pos:min(p.pos+2, len(p.s))]), "::") {
			p.pos += 2
			annots = append(annots, sym)
			continue
		}
		p.pos, p.line = start, startLine
		break
	}
	v := p.bare(depth)
	v.annots = annots
	return v
}

// maybeSymbol reads an identifier or a quoted symbol if one starts here
// (”'long strings”' are strings, not symbols).
func (p *ionParser) maybeSymbol() (string, bool) {
	c := p.peek()
	if isIdentStart(c) {
		start := p.pos
		for p.pos < len(p.s) && isIdentPart(p.s[p.pos]) {
			p.pos++
		}
		return string(p.s[start:p.pos]), true
	}
	if c == '\'' && !strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "'''") {
		return p.quoted('\''), true
	}
	return "", false
}

func (p *ionParser) bare(depth int) ionValue {
	p.skipSpace()
	if p.pos >= len(p.s) {
		p.fail("unexpected end of input")
	}
	c := p.s[p.pos]
	switch {
	case c == '{':
		if p.pos+1 < len(p.s) && p.s[p.pos+1] == '{' {
			return p.lob()
		}
		return p.structure(depth)
	case c == '[':
		return p.list(depth)
	case c == '(':
		p.fail("s-expressions are not DynamoDB values")
	case c == '"':
		return ionValue{kind: ionString, text: p.quoted('"')}
	case c == '\'':
		if strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "'''") {
			return ionValue{kind: ionString, text: p.longString()}
		}
		return ionValue{kind: ionSymbol, text: p.quoted('\'')}
	case c == '-' || c == '+' || c >= '0' && c <= '9':
		return p.number()
	case isIdentStart(c):
		start := p.pos
		for p.pos < len(p.s) && isIdentPart(p.s[p.pos]) {
			p.pos++
		}
		word := string(p.s[start:p.pos])
		switch word {
		case "null":
			if p.peek() == '.' {
				p.pos++
				for p.pos < len(p.s) && isIdentPart(p.s[p.pos]) {
					p.pos++
				}
			}
			return ionValue{kind: ionNull}
		case "true", "false":
			return ionValue{kind: ionBool, bool: word == "true"}
		case "nan":
			return ionValue{kind: ionFloat, text: "nan"}
		}
		return ionValue{kind: ionSymbol, text: word}
	}
	p.fail("unexpected character %q", c)
	panic("unreachable")
}

func (p *ionParser) structure(depth int) ionValue {
	p.pos++ // {
	v := ionValue{kind: ionStruct}
	for {
		p.skipSpace()
		if p.peek() == '}' {
			p.pos++
			return v
		}
		var name string
		switch c := p.peek(); {
		case c == '"':
			name = p.quoted('"')
		case c == '\'' && strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "'''"):
			name = p.longString()
		default:
			s, ok := p.maybeSymbol()
			if !ok {
				p.fail("want a field name")
			}
			name = s
		}
		p.skipSpace()
		if p.peek() != ':' {
			p.fail("want ':' after field name %q", name)
		}
		p.pos++
		fv := p.value(depth + 1)
		v.fields = append(v.fields, ionField{name: name, v: fv})
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
		default:
			p.fail("want ',' or '}' in a struct")
		}
	}
}

func (p *ionParser) list(depth int) ionValue {
	p.pos++ // [
	v := ionValue{kind: ionList, list: []ionValue{}}
	for {
		p.skipSpace()
		if p.peek() == ']' {
			p.pos++
			return v
		}
		v.list = append(v.list, p.value(depth+1))
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
		default:
			p.fail("want ',' or ']' in a list")
		}
	}
}

// lob reads {{base64}} or {{"clob"}}.
func (p *ionParser) lob() ionValue {
	p.pos += 2
	p.skipSpace()
	var b []byte
	if c := p.peek(); c == '"' || c == '\'' {
		var s string
		if c == '"' {
			s = p.quoted('"')
		} else {
			s = p.longString()
		}
		b = []byte(s)
	} else {
		var sb strings.Builder
		for p.pos < len(p.s) && p.s[p.pos] != '}' {
			c := p.s[p.pos]
			if c == '\n' {
				p.line++
			}
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				sb.WriteByte(c)
			}
			p.pos++
		}
		d, err := base64.StdEncoding.DecodeString(sb.String())
		if err != nil {
			p.fail("bad base64 in a blob")
		}
		b = d
	}
	p.skipSpace()
	if !strings.HasPrefix(string(p.s[p.pos:min(p.pos+2, len(p.s))]), "}}") {
		p.fail("want '}}' to end a blob")
	}
	p.pos += 2
	return ionValue{kind: ionBlob, b: b}
}

// number reads an int, decimal or float; its kind tells which.
func (p *ionParser) number() ionValue {
	start := p.pos
	if c := p.peek(); c == '+' || c == '-' {
		p.pos++
		if strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "inf") {
			p.pos += 3
			return ionValue{kind: ionFloat, text: string(p.s[start:p.pos])}
		}
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' ||
			(c == '-' || c == '+') && p.pos > start && strings.ContainsRune("eEdD", rune(p.s[p.pos-1])) {
			p.pos++
			continue
		}
		break
	}
	text := string(p.s[start:p.pos])
	if strings.ContainsAny(text, "TZ:") || strings.Count(text, "-") > 2 {
		p.fail("timestamps are not DynamoDB values")
	}
	return classifyIonNumber(p, text)
}

func classifyIonNumber(p *ionParser, text string) ionValue {
	body := strings.TrimLeft(text, "+-")
	if strings.HasPrefix(text, "+") {
		p.fail("bad number %q", text)
	}
	neg := strings.HasPrefix(text, "-")
	lower := strings.ToLower(body)
	if strings.HasPrefix(lower, "0x") || strings.HasPrefix(lower, "0b") {
		base := 16
		if lower[1] == 'b' {
			base = 2
		}
		digits := strings.ReplaceAll(body[2:], "_", "")
		n, ok := new(big.Int).SetString(digits, base)
		if !ok {
			p.fail("bad number %q", text)
		}
		s := n.String()
		if neg {
			s = "-" + s
		}
		return ionValue{kind: ionInt, text: s}
	}
	plain := strings.ReplaceAll(body, "_", "")
	if strings.Contains(body, "_") && (strings.HasPrefix(body, "_") || strings.HasSuffix(body, "_") || strings.Contains(body, "__")) {
		p.fail("bad number %q", text)
	}
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case strings.ContainsAny(plain, "dD"):
		i := strings.IndexAny(plain, "dD")
		mant, exp := plain[:i], plain[i+1:]
		if !isDecimalMantissa(mant) || !isExponent(exp) {
			p.fail("bad number %q", text)
		}
		return ionValue{kind: ionDecimal, text: sign + strings.TrimSuffix(mant, ".") + "E" + exp}
	case strings.ContainsAny(plain, "eE"):
		i := strings.IndexAny(plain, "eE")
		mant, exp := plain[:i], plain[i+1:]
		if !isDecimalMantissa(mant) || !isExponent(exp) {
			p.fail("bad number %q", text)
		}
		return ionValue{kind: ionFloat, text: sign + strings.TrimSuffix(mant, ".") + "E" + exp}
	case strings.Contains(plain, "."):
		if !isDecimalMantissa(plain) {
			p.fail("bad number %q", text)
		}
		return ionValue{kind: ionDecimal, text: sign + strings.TrimSuffix(plain, ".")}
	}
	if !isDigits(plain) || len(plain) > 1 && plain[0] == '0' {
		p.fail("bad number %q", text)
	}
	return ionValue{kind: ionInt, text: sign + plain}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDecimalMantissa accepts digits with at most one point and at least
// one digit before it ("1", "1.", "1.5", "0.5").
func isDecimalMantissa(s string) bool {
	ip, fp, _ := strings.Cut(s, ".")
	return isDigits(ip) && (fp == "" || isDigits(fp)) && !(len(ip) > 1 && ip[0] == '0')
}

func isExponent(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	return isDigits(s)
}

// quoted reads a string quoted with q ('"' or '\”), with Ion's escapes.
func (p *ionParser) quoted(q byte) string {
	p.pos++
	var sb strings.Builder
	for {
		if p.pos >= len(p.s) {
			p.fail("unterminated string")
		}
		c := p.s[p.pos]
		switch {
		case c == q:
			p.pos++
			return sb.String()
		case c == '\n':
			p.fail("newline in a quoted string")
		case c == '\\':
			p.escape(&sb)
		default:
			sb.WriteByte(c)
			p.pos++
		}
	}
}

// longString reads one or more ”'...”' segments, concatenated.
func (p *ionParser) longString() string {
	var sb strings.Builder
	for {
		p.pos += 3
		for {
			if p.pos >= len(p.s) {
				p.fail("unterminated long string")
			}
			if strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "'''") {
				p.pos += 3
				break
			}
			c := p.s[p.pos]
			if c == '\\' {
				p.escape(&sb)
				continue
			}
			if c == '\n' {
				p.line++
			}
			sb.WriteByte(c)
			p.pos++
		}
		save, saveLine := p.pos, p.line
		p.skipSpace()
		if !strings.HasPrefix(string(p.s[p.pos:min(p.pos+3, len(p.s))]), "'''") {
			p.pos, p.line = save, saveLine
			return sb.String()
		}
	}
}

func (p *ionParser) escape(sb *strings.Builder) {
	p.pos++ // backslash
	if p.pos >= len(p.s) {
		p.fail("unterminated escape")
	}
	c := p.s[p.pos]
	p.pos++
	switch c {
	case 'n':
		sb.WriteByte('\n')
	case 't':
		sb.WriteByte('\t')
	case 'r':
		sb.WriteByte('\r')
	case '0':
		sb.WriteByte(0)
	case 'a':
		sb.WriteByte(7)
	case 'b':
		sb.WriteByte(8)
	case 'v':
		sb.WriteByte(11)
	case 'f':
		sb.WriteByte(12)
	case '"', '\'', '\\', '/', '?':
		sb.WriteByte(c)
	case '\n':
		p.line++ // a line continuation
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		if p.pos+n > len(p.s) {
			p.fail("short \\%c escape", c)
		}
		r, err := strconv.ParseUint(string(p.s[p.pos:p.pos+n]), 16, 32)
		if err != nil || r > utf8.MaxRune {
			p.fail("bad \\%c escape", c)
		}
		p.pos += n
		sb.WriteRune(rune(r))
	default:
		p.fail("unknown escape \\%c", c)
	}
}

// attrFromIon reads an Ion value as a DynamoDB value.
func attrFromIon(v ionValue) (attr.Value, error) {
	if len(v.annots) > 1 {
		return attr.Value{}, fmt.Errorf("a value carries %d annotations", len(v.annots))
	}
	if len(v.annots) == 1 {
		if v.kind != ionList {
			return attr.Value{}, fmt.Errorf("annotation %s on a value that is not a list", v.annots[0])
		}
		switch v.annots[0] {
		case ionAnnotSS, ionAnnotNS:
			t, want := attr.TypeSS, ionString
			if v.annots[0] == ionAnnotNS {
				t = attr.TypeNS
			}
			ss := make([]string, len(v.list))
			for i, e := range v.list {
				switch {
				case t == attr.TypeSS && e.kind == want && len(e.annots) == 0:
					ss[i] = e.text
				case t == attr.TypeNS && (e.kind == ionInt || e.kind == ionDecimal || e.kind == ionFloat) && len(e.annots) == 0:
					if e.text == "nan" || strings.HasSuffix(e.text, "inf") {
						return attr.Value{}, fmt.Errorf("%s is not a DynamoDB number", e.text)
					}
					ss[i] = e.text
				default:
					return attr.Value{}, fmt.Errorf("%s holds a value of another type", v.annots[0])
				}
			}
			return attr.Value{Type: t, SS: ss}, nil
		case ionAnnotBS:
			bs := make([][]byte, len(v.list))
			for i, e := range v.list {
				if e.kind != ionBlob || len(e.annots) != 0 {
					return attr.Value{}, fmt.Errorf("%s holds a value that is not a blob", ionAnnotBS)
				}
				bs[i] = e.b
			}
			return attr.Value{Type: attr.TypeBS, BS: bs}, nil
		}
		return attr.Value{}, fmt.Errorf("unknown annotation %s", v.annots[0])
	}
	switch v.kind {
	case ionNull:
		return attr.Null(), nil
	case ionBool:
		return attr.Bool(v.bool), nil
	case ionInt, ionDecimal, ionFloat:
		if v.text == "nan" || strings.HasSuffix(v.text, "inf") {
			return attr.Value{}, fmt.Errorf("%s is not a DynamoDB number", v.text)
		}
		return attr.N(v.text), nil
	case ionString, ionSymbol:
		return attr.S(v.text), nil
	case ionBlob:
		return attr.B(v.b), nil
	case ionStruct:
		m, err := itemFromIon(v)
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Value{Type: attr.TypeM, M: m}, nil
	case ionList:
		l := make([]attr.Value, len(v.list))
		for i, e := range v.list {
			a, err := attrFromIon(e)
			if err != nil {
				return attr.Value{}, fmt.Errorf("element %d: %w", i, err)
			}
			l[i] = a
		}
		return attr.Value{Type: attr.TypeL, L: l}, nil
	}
	return attr.Value{}, fmt.Errorf("unsupported Ion value")
}

// itemFromIon reads an Ion struct as an item (unchecked).
func itemFromIon(v ionValue) (attr.Item, error) {
	if v.kind != ionStruct || len(v.annots) != 0 {
		return nil, fmt.Errorf("want a struct")
	}
	it := make(attr.Item, len(v.fields))
	for _, f := range v.fields {
		if _, dup := it[f.name]; dup {
			return nil, fmt.Errorf("field %q appears twice", f.name)
		}
		a, err := attrFromIon(f.v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", f.name, err)
		}
		it[f.name] = a
	}
	return it, nil
}
