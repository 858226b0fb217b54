package partiql

import (
	"strconv"
	"strings"
)

// Format writes an expression back as PartiQL text, fully parenthesised
// where precedence could mislead; parameters are written `?`. It is for
// people (dynago sql --explain), not for parsing again.
func Format(e Expr) string {
	var sb strings.Builder
	format(&sb, e, false)
	return sb.String()
}

func format(sb *strings.Builder, e Expr, nested bool) {
	switch x := e.(type) {
	case nil:
	case *Path:
		for i, el := range x.Elems {
			switch {
			case el.IsIndex:
				sb.WriteString("[" + strconv.Itoa(el.Index) + "]")
			case i == 0:
				writeName(sb, el.Name)
			default:
				sb.WriteByte('.')
				writeName(sb, el.Name)
			}
		}
	case *Literal:
		switch x.Kind {
		case LitString:
			sb.WriteString("'" + strings.ReplaceAll(x.Text, "'", "''") + "'")
		case LitNumber:
			sb.WriteString(x.Text)
		case LitBool:
			sb.WriteString(strings.ToUpper(strconv.FormatBool(x.Bool)))
		case LitNull:
			sb.WriteString("NULL")
		case LitMissing:
			sb.WriteString("MISSING")
		}
	case *Param:
		sb.WriteString("?")
	case *List:
		formatList(sb, "[", x.Elems, "]")
	case *Bag:
		formatList(sb, "<<", x.Elems, ">>")
	case *Map:
		sb.WriteByte('{')
		for i := range x.Keys {
			if i > 0 {
				sb.WriteString(", ")
			}
			format(sb, x.Keys[i], false)
			sb.WriteString(": ")
			format(sb, x.Vals[i], false)
		}
		sb.WriteByte('}')
	case *Binary:
		paren := nested && (x.Op == "AND" || x.Op == "OR")
		if paren {
			sb.WriteByte('(')
		}
		format(sb, x.L, true)
		sb.WriteString(" " + x.Op + " ")
		format(sb, x.R, true)
		if paren {
			sb.WriteByte(')')
		}
	case *Not:
		sb.WriteString("NOT ")
		format(sb, x.X, true)
	case *Neg:
		sb.WriteString("-")
		format(sb, x.X, true)
	case *Between:
		format(sb, x.X, true)
		if x.Negated {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" BETWEEN ")
		format(sb, x.Lo, true)
		sb.WriteString(" AND ")
		format(sb, x.Hi, true)
	case *In:
		format(sb, x.X, true)
		if x.Negated {
			sb.WriteString(" NOT")
		}
		sb.WriteString(" IN ")
		formatList(sb, "[", x.List, "]")
	case *Is:
		format(sb, x.X, true)
		sb.WriteString(" IS ")
		if x.Negated {
			sb.WriteString("NOT ")
		}
		sb.WriteString(x.Type)
	case *Call:
		sb.WriteString(x.Name)
		formatList(sb, "(", x.Args, ")")
	}
}

func formatList(sb *strings.Builder, open string, elems []Expr, end string) {
	sb.WriteString(open)
	for i, el := range elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		format(sb, el, false)
	}
	sb.WriteString(end)
}

// writeName writes an attribute name bare when it can be, else quoted.
func writeName(sb *strings.Builder, n string) {
	bare := n != "" && !isReserved(n)
	for i, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			bare = false
			break
		}
	}
	if bare {
		sb.WriteString(n)
		return
	}
	sb.WriteString(`"` + strings.ReplaceAll(n, `"`, `""`) + `"`)
}
