import { compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CompiledMessage } from "./format-message";
import type { MessageKey } from "./keys";
import { Message } from "./Message";
import { I18nProvider } from "./translate";

// A stand-in catalog: the keys are cast, the texts are what translators may write.
function render(text: string, values: Record<string, string | number>, components: Record<string, ReturnType<typeof createElement>>) {
  const catalog = { language: "en" as const, messages: { "test.message": compileMessageOrThrow(text) as CompiledMessage } };
  return renderToStaticMarkup(
    createElement(I18nProvider, { value: catalog }, createElement(Message, { id: "test.message" as MessageKey, values, components })),
  );
}

describe("<Message>", () => {
  it("puts components around their words, wherever the translation moved them", () => {
    const components = { 0: createElement("a", { href: "/x" }), 1: createElement("strong") };
    expect(render("Read <0>the notes</0> at {time}.", { time: "20:00" }, components)).toBe('Read <a href="/x">the notes</a> at 20:00.');
    expect(render("<1>{time}</1>: baca <0>catatan</0>", { time: "20.00" }, components)).toBe('<strong>20.00</strong>: baca <a href="/x">catatan</a>');
    expect(render("Nested <0>a <1>b</1> c</0>", {}, components)).toBe('Nested <a href="/x">a <strong>b</strong> c</a>');
    expect(render("Line<1/>break", {}, components)).toBe("Line<strong></strong>break");
  });

  it("never reads a tag out of a value (a show named like markup stays text)", () => {
    const components = { 0: createElement("a", { href: "/x" }) };
    expect(render("On now: {show} <0>more</0>", { show: "<0>Hack</0> & <b>" }, components)).toBe(
      'On now: &lt;0&gt;Hack&lt;/0&gt; &amp; &lt;b&gt; <a href="/x">more</a>',
    );
  });

  it("fills plurals through Lingui's ICU runtime", () => {
    expect(render("{count, plural, one {# episode} other {# episodes}} <0>new</0>", { count: 1 }, { 0: createElement("em") })).toBe("1 episode <em>new</em>");
    expect(render("{count, plural, one {# episode} other {# episodes}}", { count: 3 }, {})).toBe("3 episodes");
  });
});
