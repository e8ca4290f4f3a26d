import sanitizeHtml from "sanitize-html";

const LINK_REL = "noopener noreferrer nofollow";

/**
 * The one policy for a news caption's HTML, applied on write: the client renders a caption as
 * it comes, so only formatting survives. Anything else is dropped: script, style, SVG, MathML,
 * frames, forms, every attribute but a link's href/title/target, and every href but http(s)
 * and mailto (sanitize-html decodes entities and strips control characters before judging a
 * scheme, so `jav&#x61;script:` and `java\tscript:` are caught).
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "mark",
    "small",
    "sub",
    "sup",
    "blockquote",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "h2",
    "h3",
    "h4",
    "span",
    "a",
  ],
  // target and rel: only the values transformTags leaves, whatever the client sent.
  allowedAttributes: { a: ["href", "title", "target", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // Dropped with everything inside them, not just unwrapped.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "svg",
    "math",
    "iframe",
    "object",
    "embed",
    "template",
    "title",
    "xmp",
    "noembed",
    "noframes",
  ],
  disallowedTagsMode: "discard",
  // A link may open a new tab, and the page it opens gets no handle on ours.
  transformTags: {
    a: (tagName, { target, rel: _rel, ...attribs }) => ({
      tagName,
      attribs: { ...attribs, ...(target === "_blank" ? { target } : {}), rel: LINK_REL },
    }),
  },
};

/** The caption as stored and answered: formatting tags only. */
export function cleanCaption(html: string): string {
  return sanitizeHtml(html, POLICY).trim();
}
