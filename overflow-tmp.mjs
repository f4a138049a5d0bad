import { chromium } from "playwright-core";
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 320, height: 700 } });
await page.goto(url, { waitUntil: "load" });
await page.waitForTimeout(1500);
const wide = await page.evaluate(() => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.right > document.documentElement.clientWidth + 1 && r.width > 0) out.push(`${(el.textContent||"").slice(0,30)} | ${el.parentElement?.className} | ${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(r.right)} w=${Math.round(r.width)}`);
  }
  return { scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 15) };
});
console.log(JSON.stringify(wide, null, 1));
await page.screenshot({ path: "/tmp/listen320.png", fullPage: false });
await browser.close();
