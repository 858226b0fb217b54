package partiql

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a bare name or keyword: [A-Za-z_][A-Za-z0-9_$]*
	tQuoted         // a double-quoted name; text is unquoted
	tString         // a single-quoted string; text is unquoted
	tNumber         // an unsigned number literal
	tParam          // ?
	tPunct          // an operator or punctuation; text is the symbol
	tBad            // a character that starts no token, or an unterminated one
)

// token is one token: its kind, its text (unquoted for names and strings)
// and where it starts.
type token struct {
	kind tokKind
	text string
	pos  Pos
	end  int // byte offset just past the token
}

// is reports whether t is the keyword kw (upper case), written in any case.
func (t token) is(kw string) bool {
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}

// punct reports whether t is the symbol s.
func (t token) punct(s string) bool { return t.kind == tPunct && t.text == s }

// lexer turns a statement into tokens on demand, keeping line and column.
type lexer struct {
	src  string
	i    int
	line int
	col  int // column of src[i], from 1, in characters
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// advance moves past n bytes, keeping line and column.
func (l *lexer) advance(n int) {
	end := l.i + n
	for l.i < end {
		c := l.src[l.i]
		if c == '\n' {
			l.line++
			l.col = 1
			l.i++
			continue
		}
		_, size := utf8.DecodeRuneInString(l.src[l.i:])
		l.i += size
		l.col++
	}
}

// skipSpace skips whitespace and comments. An unterminated block comment
// is reported as a bad token by returning false.
func (l *lexer) skipSpace() bool {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.advance(1)
		case c == '-' && strings.HasPrefix(l.src[l.i:], "--"):
			j := strings.IndexByte(l.src[l.i:], '\n')
			if j < 0 {
				l.advance(len(l.src) - l.i)
			} else {
				l.advance(j + 1)
			}
		case c == '/' && strings.HasPrefix(l.src[l.i:], "/*"):
			j := strings.Index(l.src[l.i+2:], "*/")
			if j < 0 {
				return false
			}
			l.advance(j + 4)
		default:
			return true
		}
	}
	return true
}

// symbols are the operators and punctuation, longest first.
var symbols = []string{"<<", ">>", "<=", ">=", "<>", "!=", "||", "(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "*", "=", "<", ">", "+", "-", "/", "%"}

// next returns the next token.
func (l *lexer) next() token {
	if !l.skipSpace() {
		t := token{kind: tBad, pos: Pos{Line: l.line, Col: l.col, Len: 2}}
		l.advance(len(l.src) - l.i)
		t.end = l.i
		return t
	}
	pos := Pos{Line: l.line, Col: l.col}
	start := l.i
	if l.i >= len(l.src) {
		return token{kind: tEOF, pos: pos, end: l.i}
	}
	c := l.src[l.i]
	var t token
	switch {
	case isIdentStart(c):
		j := l.i + 1
		for j < len(l.src) && isIdentChar(l.src[j]) {
			j++
		}
		t = token{kind: tIdent, text: l.src[l.i:j]}
		l.advance(j - l.i)
	case c == '"' || c == '\'':
		text, n, ok := quoted(l.src[l.i:], c)
		if !ok {
			t = token{kind: tBad}
			l.advance(len(l.src) - l.i)
			break
		}
		t = token{kind: tString, text: text}
		if c == '"' {
			t.kind = tQuoted
		}
		l.advance(n)
	case isDigit(c) || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]):
		n := numberLen(l.src[l.i:])
		t = token{kind: tNumber, text: l.src[l.i : l.i+n]}
		l.advance(n)
	case c == '?':
		t = token{kind: tParam, text: "?"}
		l.advance(1)
	default:
		for _, s := range symbols {
			if strings.HasPrefix(l.src[l.i:], s) {
				t = token{kind: tPunct, text: s}
				l.advance(len(s))
				break
			}
		}
		if t.kind != tPunct {
			_, size := utf8.DecodeRuneInString(l.src[l.i:])
			t = token{kind: tBad, text: l.src[l.i : l.i+size]}
			l.advance(size)
		}
	}
	t.pos = pos
	t.pos.Len = utf8.RuneCountInString(l.src[start:l.i])
	t.end = l.i
	return t
}

// quoted reads a string quoted with q at the start of s, where a doubled
// quote stands for one. It returns the text, the bytes read and whether
// the string was closed.
func quoted(s string, q byte) (string, int, bool) {
	var b strings.Builder
	i := 1
	plain := true
	for i < len(s) {
		c := s[i]
		if c == q {
			if i+1 < len(s) && s[i+1] == q {
				if plain {
					b.WriteString(s[1:i])
					plain = false
				}
				b.WriteByte(q)
				i += 2
				continue
			}
			if plain {
				return s[1:i], i + 1, true
			}
			return b.String(), i + 1, true
		}
		if !plain {
			b.WriteByte(c)
		}
		i++
	}
	return "", len(s), false
}

// numberLen returns the length of the number literal at the start of s:
// digits, an optional fraction and an optional exponent.
func numberLen(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	return i
}
