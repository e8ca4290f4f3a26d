// Added to FerretDB v1's storage format (package sjson) by tools/dev-db/ferretdb-build.ts: the
// JSON tokens fast_reader.go reads, as strictly as encoding/json reads them.

package sjson

import (
	"bytes"
	"encoding/json"
)

// open reads the byte opening an object or array and counts the nesting it starts.
func (r *fastReader) open(b byte) bool {
	if r.depth >= fastMaxDepth || !r.expect(b) {
		return false
	}

	r.depth++

	return true
}

// close reads the byte closing an object or array opened by open.
func (r *fastReader) close(b byte) bool {
	if !r.expect(b) {
		return false
	}

	r.depth--

	return true
}

func (r *fastReader) expect(b byte) bool {
	if r.pos < len(r.data) && r.data[r.pos] == b {
		r.pos++
		return true
	}

	return false
}

func (r *fastReader) literal(lit string) bool {
	end := r.pos + len(lit)
	if end > len(r.data) || string(r.data[r.pos:end]) != lit {
		return false
	}

	r.pos = end

	return true
}

// list reads comma-separated items up to `closer` (the opener already read), each by `item`,
// which tells whether it read one.
func (r *fastReader) list(closer byte, item func() bool) bool {
	for first := true; !r.close(closer); first = false {
		if (!first && !r.expect(',')) || !item() {
			return false
		}
	}

	return true
}

// key reads `"<key>":` and tells whether it is the expected key, byte for byte.
func (r *fastReader) key(raw []byte) bool {
	got, ok := r.rawString()
	return ok && bytes.Equal(got, raw) && r.expect(':')
}

// rawString reads a JSON string and returns it with its quotes, still escaped.
func (r *fastReader) rawString() ([]byte, bool) {
	start := r.pos
	if !r.expect('"') {
		return nil, false
	}

	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '"':
			r.pos++
			return r.data[start:r.pos], true
		case '\\':
			r.pos += 2
		default:
			r.pos++
		}
	}

	return nil, false
}

// unquote decodes a raw JSON string as encoding/json does.
func unquote(raw []byte) (string, bool) {
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		// Escapes, control characters and anything beyond ASCII (whose validity encoding/json
		// checks) take the general decoder.
		if c < 0x20 || c == '\\' || c >= 0x80 {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", false
			}

			return s, true
		}
	}

	return string(inner), true
}

func (r *fastReader) string() (string, bool) {
	raw, ok := r.rawString()
	if !ok {
		return "", false
	}

	return unquote(raw)
}

// number reads a JSON number (RFC 8259 grammar) and returns its text.
func (r *fastReader) number() (string, bool) {
	d, i := r.data, r.pos
	digits := func() bool {
		from := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}

		return i > from
	}

	if i < len(d) && d[i] == '-' {
		i++
	}

	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return "", false
	}

	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return "", false
		}
	}

	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}

		if !digits() {
			return "", false
		}
	}

	text := string(d[r.pos:i])
	r.pos = i

	return text, true
}
