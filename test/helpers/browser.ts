/**
 * Debian's Chromium (never a downloaded browser) driven by playwright-core, in a throwaway profile
 * removed after the file's tests. The flags keep it off the network: this machine has none.
 */
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export async function launchBrowser(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    acceptDownloads: true,
    viewport,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  afterAll(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}
