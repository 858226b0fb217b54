package retrofit

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Template derives a string attribute from others: "{resourceId}-{action}"
// is resourceId's value, a dash, and action's value. Sources must be S or
// N attributes; "{{" and "}}" write literal braces.
type Template struct {
	text    string
	lits    []string // lits[i] precedes attrs[i]; the last one ends the text
	sources []string
}

// ParseTemplate parses a template.
func ParseTemplate(text string) (*Template, error) {
	t := &Template{text: text}
	var lit strings.Builder
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '{' && i+1 < len(text) && text[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(text) && text[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("retrofit: template %q: unclosed '{' at %d", text, i)
			}
			name := text[i+1 : i+end]
			if name == "" || strings.ContainsAny(name, "{") {
				return nil, fmt.Errorf("retrofit: template %q: bad attribute name at %d", text, i)
			}
			t.lits = append(t.lits, lit.String())
			lit.Reset()
			t.sources = append(t.sources, name)
			i += end
		case c == '}':
			return nil, fmt.Errorf("retrofit: template %q: unmatched '}' at %d", text, i)
		default:
			lit.WriteByte(c)
		}
	}
	t.lits = append(t.lits, lit.String())
	if len(t.sources) == 0 {
		return nil, fmt.Errorf("retrofit: template %q names no attribute", text)
	}
	return t, nil
}

// String returns the template's text.
func (t *Template) String() string { return t.text }

// Sources returns the attributes the template reads, in order, with
// repeats.
func (t *Template) Sources() []string { return append([]string(nil), t.sources...) }

// Render computes the derived value for item. ok is false when a source
// is missing or is not S or N: such items get no derived attribute, as a
// sparse index expects.
func (t *Template) Render(item map[string]types.AttributeValue) (value string, ok bool) {
	var b strings.Builder
	for i, name := range t.sources {
		b.WriteString(t.lits[i])
		switch v := item[name].(type) {
		case *types.AttributeValueMemberS:
			b.WriteString(v.Value)
		case *types.AttributeValueMemberN:
			b.WriteString(v.Value)
		default:
			return "", false
		}
	}
	b.WriteString(t.lits[len(t.lits)-1])
	return b.String(), true
}
