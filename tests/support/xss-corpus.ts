import { Parser } from "htmlparser2";

/**
 * Captions an attacker might send: script and style, event handlers, javascript:/data:/
 * vbscript: links (plain, mixed case, entity-encoded, split by control characters), SVG and
 * MathML, frames and forms, nested and malformed tags, comments and CDATA.
 */
export const XSS_CORPUS: readonly string[] = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//x.example/x.js></SCRIPT>",
  "<img src=x onerror=alert(1)>",
  '<p onclick="alert(1)">hi</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="jav&#x61;script:alert(1)">x</a>',
  '<a href="jav&#97;script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="java\u0000script:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  "<style>body{background:url(javascript:alert(1))}</style>",
  '<p style="background:url(javascript:alert(1))">x</p>',
  "<div><scr<script>ipt>alert(1)</scr</script>ipt></div>",
  "<<script>script>alert(1)<</script>/script>",
  '<img src="x" onerror="alert(1)"',
  "<p><b><i><script>alert(1)</script></i></b></p>",
  '<form action="javascript:alert(1)"><button>x</button></form>',
  "<input onfocus=alert(1) autofocus>",
  "<details open ontoggle=alert(1)>",
  "<body onload=alert(1)>",
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  "<link rel=stylesheet href=javascript:alert(1)>",
  "<!--<img src=x onerror=alert(1)>-->",
  "<![CDATA[<script>alert(1)</script>]]>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  '<p>ok</p><noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  "<template><script>alert(1)</script></template>",
  "<textarea><script>alert(1)</script></textarea>",
  '<video><source onerror="alert(1)"></video>',
  '<a href="//evil.example/x">x</a>',
  '<a href="https://ok.example" target="_top" rel="opener">x</a>',
  '<span class="x" id="y" data-x="1" onclick="alert(1)">x</span>',
];

/** What a caption may hold after cleaning (src/modules/news/caption-policy.ts). */
const ALLOWED_TAGS = new Set(
  "p br hr strong b em i u s del ins mark small sub sup blockquote code pre ul ol li h2 h3 h4 span a".split(
    " ",
  ),
);
const ALLOWED_ATTRIBUTES = new Set(["href", "title", "target", "rel"]);
const SAFE_SCHEMES = new Set(["http", "https", "mailto"]);

/**
 * What in `html` a browser could execute, as a parser reads it (entities decoded): tags off the
 * allow-list, event or style attributes, links whose scheme is not http(s)/mailto or that
 * leave the origin's scheme to the browser. Empty when the caption is safe to render.
 */
export function executableMarkupIn(html: string): string[] {
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}>`);
        for (const [attribute, value] of Object.entries(attributes)) {
          if (!ALLOWED_ATTRIBUTES.has(attribute)) problems.push(`attribute ${attribute}`);
          if (attribute === "target" && value !== "_blank") problems.push(`target ${value}`);
          if (attribute === "rel" && /(^|\s)opener(\s|$)/.test(value)) problems.push("rel opener");
          if (attribute === "href") {
            // Browsers skip whitespace and control characters inside a scheme.
            const compact = [...value]
              .filter((char) => char > " ")
              .join("")
              .toLowerCase();
            const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1];
            if (compact.startsWith("//")) problems.push(`protocol-relative href ${value}`);
            if (scheme !== undefined && !SAFE_SCHEMES.has(scheme)) problems.push(`href ${value}`);
          }
        }
      },
      oncomment() {
        problems.push("a comment");
      },
      oncdatastart() {
        problems.push("CDATA");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  // Belt and braces on the raw text, whatever the parser made of it.
  if (/<\s*\/?\s*(script|svg|math|iframe|style|object|embed)/i.test(html))
    problems.push("a dangerous tag in the raw text");
  if (/\son[a-z]+\s*=/i.test(html.replace(/&[a-z#0-9]+;/gi, ""))) problems.push("an event handler");
  return problems;
}
