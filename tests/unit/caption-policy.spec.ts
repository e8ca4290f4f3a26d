import { cleanCaption } from "../../src/modules/news/caption-policy";
import { XSS_CORPUS, executableMarkupIn } from "../support/xss-corpus";

/** The caption sanitiser's policy, without the app: what stays, what goes. */
describe("cleanCaption", () => {
  it.each(XSS_CORPUS)("leaves no executable markup in %j", (attack) => {
    expect(executableMarkupIn(cleanCaption(attack))).toEqual([]);
  });

  it("is judged by a checker that does see the attacks before cleaning", () => {
    const unnoticed = XSS_CORPUS.filter((attack) => executableMarkupIn(attack).length === 0);
    // Entity-encoded markup is text already.
    expect(unnoticed).toEqual(["&lt;script&gt;alert(1)&lt;/script&gt;"]);
  });

  it("keeps the formatting a post needs", () => {
    const html =
      "<h2>Relief</h2><p><strong>Bold</strong>, <em>italic</em>, <u>under</u> and <s>old</s>.</p>" +
      "<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><br><hr>";
    expect(cleanCaption(html)).toBe(html.replace("<br>", "<br />").replace("<hr>", "<hr />"));
  });

  it("keeps http(s) and mailto links, and makes them unable to reach back", () => {
    expect(cleanCaption('<a href="https://poi.example/x" target="_blank">x</a>')).toBe(
      '<a href="https://poi.example/x" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
    expect(cleanCaption('<a href="mailto:info@poi.example">mail</a>')).toContain(
      'href="mailto:info@poi.example"',
    );
  });

  it("drops a javascript: link's href but keeps its text", () => {
    expect(cleanCaption('<a href="javascript:alert(1)">click</a>')).toBe(
      '<a rel="noopener noreferrer nofollow">click</a>',
    );
  });

  it("drops script, style and SVG with their content, and unwraps unknown tags", () => {
    expect(
      cleanCaption("<p>a<script>b</script><style>c</style><svg><text>d</text></svg>e</p>"),
    ).toBe("<p>ae</p>");
    expect(cleanCaption("<div><font color=red>kept text</font></div>")).toBe("kept text");
  });

  it("keeps text that looks like markup as text", () => {
    expect(cleanCaption("&lt;script&gt;alert(1)&lt;/script&gt; 1 < 2")).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt; 1 &lt; 2",
    );
  });
});
