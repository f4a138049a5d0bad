import { chromium } from "playwright-core";
const base = "http://127.0.0.1:3999";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
for (const [name, path, width, height, scheme] of [["schedule390", "/schedule", 390, 844, "dark"], ["play1366", "/play/1", 1366, 900, "dark"], ["history390", "/history", 390, 844, "light"], ["listen1366", "/listen", 1366, 900, "light"]]) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
  if (scheme === "light") await page.context().addCookies([{ name: "theme", value: Buffer.from(JSON.stringify("light")).toString("base64"), url: base }]);
  await page.goto(base + path, { waitUntil: "load" });
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `/tmp/shot-${name}.png` });
  await page.close();
}
await browser.close();
