// Shared by the browser tests and the frame-rate measurement: start the viewer example on a
// free port, and launch Debian's Chromium (never a downloaded browser) with a fresh profile.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The real command a user runs: `swerve serve --scene NAME` (built by `cargo test --release`).
export const SERVER = process.env.SWERVE_VIEWER_BIN ?? path.join(ROOT, 'target/release/swerve');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Where tests save screenshots: target/ by default, so a test run leaves the work tree clean;
// SWERVE_SCREENSHOTS=docs/screenshots refreshes the ones kept in the repository.
export const SCREENSHOTS = path.resolve(ROOT, process.env.SWERVE_SCREENSHOTS ?? 'target/viewer-screenshots');
// Without the background-networking flags Chromium keeps trying to reach its update and
// sync services, which this machine's closed network refuses.
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts the viewer with `args` on port 0 and resolves once it prints its address.
export function startServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER, ['serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let log = '';
    const timer = setTimeout(() => reject(new Error(`viewer did not start in 30 s:\n${out}${log}`)), 30000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child, log: () => log });
      }
    });
    child.stderr.on('data', (chunk) => { log += chunk; });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`viewer exited (${code}):\n${log}`)); });
  });
}

export function stopServer(server) {
  if (server && server.child.exitCode === null) {
    server.child.removeAllListeners('exit');
    server.child.kill('SIGTERM');
  }
}

// A headless Chromium with a new, empty user-data dir; returns { context, page, close }.
export async function launchBrowser(viewport = { width: 1200, height: 760 }) {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'swerve-viewer-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const close = async () => {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, page, close };
}

export async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}
