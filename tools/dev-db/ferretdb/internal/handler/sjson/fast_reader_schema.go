// Added to FerretDB v1's storage format (package sjson) by tools/dev-db/ferretdb-build.ts: the
// schemas of fast_reader.go, parsed once per distinct text and kept.

package sjson

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/FerretDB/FerretDB/internal/types"
)

// fastSchema is a document's schema: its keys in order, as written and decoded, and their
// elems. It is never changed once parsed, so one parsed schema serves many documents at once.
type fastSchema struct {
	rawKeys [][]byte
	keys    []string
	elems   []*fastElem
	// boxedKeys are keys as `any`, the form types.NewDocument takes, boxed once.
	boxedKeys []any
	// hasSchemaKey: a field named "$s". At the top level the stock reader takes the last "$s"
	// of the text for the schema, which is then that field, so such a document is left to it.
	hasSchemaKey bool
}

// fastSchemaCacheBytes bounds the text of the schemas kept; beyond it, schemas are parsed anew.
const fastSchemaCacheBytes = 4 << 20

var fastSchemas struct {
	sync.RWMutex
	byText map[string]*fastSchema
	bytes  int
}

type fastElem struct {
	kind    elemType
	schema  *fastSchema // object
	items   []*fastElem // array
	subtype types.BinarySubtype
	options string // regex
}

// Scalar elems carry nothing but their type, so one of each serves every document.
var fastScalars = map[string]*fastElem{}

func init() {
	for _, kind := range []elemType{
		elemTypeDouble, elemTypeString, elemTypeObjectID, elemTypeBool, elemTypeDate,
		elemTypeNull, elemTypeInt, elemTypeTimestamp, elemTypeLong,
	} {
		fastScalars[`"`+string(kind)+`"`] = &fastElem{kind: kind}
	}
}

// cachedSchema reads the schema at the reader's position, parsing it only if it is new.
func (r *fastReader) cachedSchema() (*fastSchema, bool) {
	end, ok := objectEnd(r.data, r.pos)
	if !ok {
		return nil, false
	}

	text := r.data[r.pos:end]

	fastSchemas.RLock()
	sch := fastSchemas.byText[string(text)]
	fastSchemas.RUnlock()

	if sch != nil {
		r.pos = end
		return sch, true
	}

	if sch, ok = r.schema(); !ok || r.pos != end {
		return nil, false
	}

	fastSchemas.Lock()
	if fastSchemas.bytes+len(text) <= fastSchemaCacheBytes {
		if fastSchemas.byText == nil {
			fastSchemas.byText = make(map[string]*fastSchema)
		}

		fastSchemas.byText[string(text)] = sch
		fastSchemas.bytes += len(text)
	}
	fastSchemas.Unlock()

	return sch, true
}

// objectEnd returns where the JSON object starting at start ends, without checking its syntax
// (the parser does that when the text is first seen).
func objectEnd(data []byte, start int) (int, bool) {
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, data[start] == '{'
			}
		}
	}

	return 0, false
}

// schema reads `{}` or `{"p":{<key>:<elem>,...},"$k":[<key>,...]}` with the same keys in
// the same order in both, none repeated.
func (r *fastReader) schema() (*fastSchema, bool) {
	if !r.open('{') {
		return nil, false
	}

	sch := new(fastSchema)
	if r.close('}') {
		return sch, true
	}

	if !r.literal(`"p":`) || !r.open('{') {
		return nil, false
	}

	seen := make(map[string]struct{})
	parsed := r.list('}', func() bool {
		raw, ok := r.rawString()
		if !ok {
			return false
		}

		key, ok := unquote(raw)
		if _, repeated := seen[key]; !ok || repeated || !r.expect(':') {
			return false
		}

		seen[key] = struct{}{}

		e, ok := r.elem()
		if !ok {
			return false
		}

		// A copy: the schema may be kept, and raw points into the caller's buffer.
		sch.rawKeys = append(sch.rawKeys, bytes.Clone(raw))
		sch.keys = append(sch.keys, key)
		sch.boxedKeys = append(sch.boxedKeys, key)
		sch.elems = append(sch.elems, e)
		sch.hasSchemaKey = sch.hasSchemaKey || key == "$s"

		return true
	})
	if !parsed {
		return nil, false
	}

	if !r.literal(`,"$k":`) || !r.open('[') {
		return nil, false
	}

	for i, raw := range sch.rawKeys {
		if i > 0 && !r.expect(',') {
			return nil, false
		}

		got, ok := r.rawString()
		if !ok || !bytes.Equal(got, raw) {
			return nil, false
		}
	}

	if !r.close(']') || !r.close('}') {
		return nil, false
	}

	return sch, true
}

// elem reads `{"t":"<type>"}`, with `,"$s":<schema>` for an object, `,"i":[<elem>,...]` for an
// array, `,"s":<subtype>` for binData and `,"o":"<options>"` for a regex.
func (r *fastReader) elem() (*fastElem, bool) {
	if !r.open('{') || !r.literal(`"t":`) {
		return nil, false
	}

	kind, ok := r.rawString()
	if !ok {
		return nil, false
	}

	if scalar, found := fastScalars[string(kind)]; found {
		return scalar, r.close('}')
	}

	e := new(fastElem)
	switch string(kind) {
	case `"object"`:
		e.kind = elemTypeObject
		if !r.literal(`,"$s":`) {
			return nil, false
		}

		if e.schema, ok = r.schema(); !ok {
			return nil, false
		}
	case `"array"`:
		e.kind = elemTypeArray
		if !r.literal(`,"i":`) || !r.open('[') {
			return nil, false
		}

		e.items = []*fastElem{}
		parsed := r.list(']', func() bool {
			item, ok := r.elem()
			e.items = append(e.items, item)

			return ok
		})
		if !parsed {
			return nil, false
		}
	case `"binData"`:
		e.kind = elemTypeBinData
		text, ok := "", r.literal(`,"s":`)
		if ok {
			text, ok = r.number()
		}

		subtype, err := strconv.ParseUint(text, 10, 8)
		if !ok || err != nil {
			return nil, false
		}

		e.subtype = types.BinarySubtype(subtype)
	case `"regex"`:
		e.kind = elemTypeRegex
		if !r.literal(`,"o":`) {
			return nil, false
		}

		if e.options, ok = r.string(); !ok {
			return nil, false
		}
	default:
		return nil, false
	}

	return e, r.close('}')
}
