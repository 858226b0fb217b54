package expr

import "unicode/utf8"

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tID              // attribute or function name: [A-Za-z][A-Za-z0-9_]*
	tName            // #placeholder: '#' [A-Za-z0-9_]+
	tValue           // :placeholder: ':' [A-Za-z0-9_]+
	tIndex           // list index: '0' | [1-9][0-9]*
	tString          // a quoted string; valid nowhere, but one token
	tUnknown         // any other single character
	tLParen
	tRParen
	tComma
	tDot
	tLBracket
	tRBracket
	tEQ
	tNE
	tLT
	tLE
	tGT
	tGE
	tPlus
	tMinus
	// Keywords, matched without regard to case.
	tIN
	tBETWEEN
	tNOT
	tAND
	tOR
	tSET
	tADD
	tDELETE
	tREMOVE
)

// token is one token of an expression: its kind and its byte span.
type token struct {
	kind       tokKind
	start, end int32
}

// The lexer follows the token rules of the expression grammar AWS ships
// with its DAX clients (DynamoDbGrammar.g4 and Tokens.g4), which mirror
// the service's: whitespace is space, tab, CR and LF; identifiers start
// with an ASCII letter; placeholders take at least one of [A-Za-z0-9_]
// after '#' or ':'; an index is "0" or digits without a leading zero; a
// character that starts no token is a token of its own, so that a syntax
// error can name it (DynamoDB reports `token: "!", near: "!!"` for
// "!!! INVALID !!!").

func isIDStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIDChar(c byte) bool  { return isIDStart(c) || c >= '0' && c <= '9' || c == '_' }

// lex splits s into tokens, ending with an EOF token at len(s). It never
// fails. dst is reused.
func lex(dst []token, s string) []token {
	i := 0
	for i < len(s) {
		c := s[i]
		start := i
		var k tokKind
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case isIDStart(c):
			for i++; i < len(s) && isIDChar(s[i]); i++ {
			}
			k = keyword(s[start:i])
		case c == '#' || c == ':':
			j := i + 1
			for j < len(s) && isIDChar(s[j]) {
				j++
			}
			if j == i+1 {
				k, i = tUnknown, i+1
			} else {
				k, i = tName, j
				if c == ':' {
					k = tValue
				}
			}
		case c >= '0' && c <= '9':
			k = tIndex
			i++
			if c != '0' {
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
		case c == '"' || c == '\'':
			// A quoted string, with backslash escapes of the quote; if it
			// is not closed the quote is an unknown character.
			k, i = tUnknown, i+1
			for j := i; j < len(s); j++ {
				if s[j] == '\\' && j+1 < len(s) && s[j+1] == c {
					j++
					continue
				}
				if s[j] == c {
					k, i = tString, j+1
					break
				}
			}
		default:
			i++
			switch c {
			case '(':
				k = tLParen
			case ')':
				k = tRParen
			case ',':
				k = tComma
			case '.':
				k = tDot
			case '[':
				k = tLBracket
			case ']':
				k = tRBracket
			case '=':
				k = tEQ
			case '+':
				k = tPlus
			case '-':
				k = tMinus
			case '<':
				k = tLT
				if i < len(s) && s[i] == '=' {
					k, i = tLE, i+1
				} else if i < len(s) && s[i] == '>' {
					k, i = tNE, i+1
				}
			case '>':
				k = tGT
				if i < len(s) && s[i] == '=' {
					k, i = tGE, i+1
				}
			default:
				k = tUnknown
				if c >= utf8.RuneSelf {
					_, n := utf8.DecodeRuneInString(s[start:])
					i = start + n
				}
			}
		}
		dst = append(dst, token{kind: k, start: int32(start), end: int32(i)})
	}
	return append(dst, token{kind: tEOF, start: int32(len(s)), end: int32(len(s))})
}

// keyword returns the keyword kind of an identifier, or tID.
func keyword(w string) tokKind {
	switch len(w) {
	case 2:
		if eqFold(w, "IN") {
			return tIN
		}
		if eqFold(w, "OR") {
			return tOR
		}
	case 3:
		if eqFold(w, "NOT") {
			return tNOT
		}
		if eqFold(w, "AND") {
			return tAND
		}
		if eqFold(w, "SET") {
			return tSET
		}
		if eqFold(w, "ADD") {
			return tADD
		}
	case 6:
		if eqFold(w, "DELETE") {
			return tDELETE
		}
		if eqFold(w, "REMOVE") {
			return tREMOVE
		}
	case 7:
		if eqFold(w, "BETWEEN") {
			return tBETWEEN
		}
	}
	return tID
}

// eqFold compares an ASCII word with an upper-case keyword, ignoring case.
func eqFold(w, upper string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}
