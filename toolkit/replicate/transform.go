package replicate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/retrofit"
)

// Assignment gives an attribute the value of a template rendered from the
// source item: "{customerId}#{orderDate}".
type Assignment struct {
	Name     string
	Template *retrofit.Template
}

// ParseAssignment parses "name=template", splitting at the first '='.
func ParseAssignment(s string) (Assignment, error) {
	name, text, ok := strings.Cut(s, "=")
	if !ok || name == "" || text == "" {
		return Assignment{}, fmt.Errorf("replicate: %q is not name=template", s)
	}
	t, err := retrofit.ParseTemplate(text)
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Name: name, Template: t}, nil
}

func (a Assignment) String() string { return a.Name + "=" + a.Template.String() }

// Transform turns a source item into its target item. The zero Transform
// copies items as they are.
type Transform struct {
	// Set derives attributes: each is set to its template rendered from
	// the source item, or removed when a source attribute is missing (as
	// retrofit leaves such items without the attribute).
	Set []Assignment
	// Hash and Range, when Hash is set, give the target a new key design:
	// its partition (and optional sort) key are string attributes
	// rendered from the source item. The source's own key attributes are
	// kept as ordinary attributes. A source item for which a key template
	// cannot render is not copied (counted as skipped). Two source items
	// must never map to one target key.
	Hash  *Assignment
	Range *Assignment
}

// String identifies the transform, for checkpoints and reports.
func (t *Transform) String() string {
	if t == nil {
		return ""
	}
	var parts []string
	for _, a := range t.Set {
		parts = append(parts, "set "+a.String())
	}
	if t.Hash != nil {
		parts = append(parts, "hash "+t.Hash.String())
	}
	if t.Range != nil {
		parts = append(parts, "range "+t.Range.String())
	}
	return strings.Join(parts, "; ")
}

func (t *Transform) redesign() bool { return t != nil && t.Hash != nil }

// mapper applies a transform between a source with key attributes
// srcKeys and a target keyed by dstKeys.
type mapper struct {
	t       *Transform
	srcKeys []string // hash, then range if any
	dstKeys []string
}

func newMapper(t *Transform, srcKeys []string) (*mapper, error) {
	m := &mapper{t: t, srcKeys: srcKeys, dstKeys: srcKeys}
	if t == nil {
		return m, nil
	}
	if t.Range != nil && t.Hash == nil {
		return nil, errors.New("replicate: a new sort key needs a new partition key too")
	}
	if t.redesign() {
		m.dstKeys = []string{t.Hash.Name}
		if t.Range != nil {
			if t.Range.Name == t.Hash.Name {
				return nil, fmt.Errorf("replicate: the new partition and sort keys are both named %s", t.Hash.Name)
			}
			m.dstKeys = append(m.dstKeys, t.Range.Name)
		}
	}
	seen := map[string]bool{}
	for _, a := range t.Set {
		if seen[a.Name] {
			return nil, fmt.Errorf("replicate: attribute %s is set twice", a.Name)
		}
		seen[a.Name] = true
		for _, k := range m.dstKeys {
			if a.Name == k {
				return nil, fmt.Errorf("replicate: %s is a key attribute of the target; derive keys with a new key design instead", k)
			}
		}
	}
	return m, nil
}

// keyOnly reports whether the target key of an item can be computed from
// the source key alone: then a stream record's Keys suffice to delete it.
func (m *mapper) keyOnly() bool {
	if !m.t.redesign() {
		return true
	}
	isKey := map[string]bool{}
	for _, k := range m.srcKeys {
		isKey[k] = true
	}
	for _, a := range []*Assignment{m.t.Hash, m.t.Range} {
		if a == nil {
			continue
		}
		for _, s := range a.Template.Sources() {
			if !isKey[s] {
				return false
			}
		}
	}
	return true
}

// key returns the target key of a source item (or of a source key, when
// keyOnly). ok is false when a key template cannot render: the item has
// no place in the target.
func (m *mapper) key(src map[string]types.AttributeValue) (map[string]types.AttributeValue, bool) {
	if !m.t.redesign() {
		k := make(map[string]types.AttributeValue, len(m.srcKeys))
		for _, n := range m.srcKeys {
			v, ok := src[n]
			if !ok {
				return nil, false
			}
			k[n] = v
		}
		return k, true
	}
	k := make(map[string]types.AttributeValue, 2)
	for _, a := range []*Assignment{m.t.Hash, m.t.Range} {
		if a == nil {
			continue
		}
		v, ok := a.Template.Render(src)
		if !ok || v == "" {
			return nil, false // DynamoDB refuses an empty string key
		}
		k[a.Name] = &types.AttributeValueMemberS{Value: v}
	}
	return k, true
}

// item returns the target item of a source item; ok as for key.
func (m *mapper) item(src map[string]types.AttributeValue) (map[string]types.AttributeValue, bool) {
	k, ok := m.key(src)
	if !ok {
		return nil, false
	}
	out := make(map[string]types.AttributeValue, len(src)+len(k)+len(m.setList()))
	for n, v := range src {
		out[n] = v
	}
	for _, a := range m.setList() {
		if v, ok := a.Template.Render(src); ok {
			out[a.Name] = &types.AttributeValueMemberS{Value: v}
		} else {
			delete(out, a.Name)
		}
	}
	for n, v := range k {
		out[n] = v
	}
	return out, true
}

func (m *mapper) setList() []Assignment {
	if m.t == nil {
		return nil
	}
	return m.t.Set
}

// keyString is a canonical encoding of a target key, to compare keys.
func (m *mapper) keyString(k map[string]types.AttributeValue) string {
	var b []byte
	for _, n := range m.dstKeys {
		b = appendCanonical(b, k[n])
	}
	return string(b)
}
