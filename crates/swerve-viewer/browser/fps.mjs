// Frame rate of the viewer for a large crowd in headless Chromium (a measurement, not a test:
// it asserts nothing and is not run by scripts/test).
//
//   node crates/swerve-viewer/browser/fps.mjs [--scene crossing] [--count 10000] [--seconds 10] [--steps-per-second 30]
//   node crates/swerve-viewer/browser/fps.mjs --scenario scenarios/hourglass3d.toml [--seconds 10] [--steps-per-second 30]
//
// (`--agents N` is `--count N`.) Any demo scene of `swerve serve --scene`: `--scene pit3d
// --count 10000` measures the 3-D page on 10,000 spheres. `--scenario FILE` serves a scenario
// file instead (`swerve serve FILE`, its own number of bodies): the hourglass measures the 3-D
// page with triangles. `--wheel DY` turns the mouse wheel by DY over the middle of the scene
// after pausing, before the paused measurement (negative zooms in: `--wheel -1000` brings the
// hourglass's camera from 77 m to 17 m, a close-up of the funnel).
//
// Reports, over the measured window while playing: frames the page drew per second, frames
// of new data it received per second, mean canvas drawing time, the server's ms per step;
// then, paused, how fast the page redraws all agents on every animation frame (drawing
// alone); and, as the peer measured in the same run, the requestAnimationFrame rate of the
// same browser on an empty page (the most any page can draw here).
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { SCREENSHOTS, launchBrowser, sleep, startServer, stopServer } from './common.mjs';

const text = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1] : fallback;
};
const arg = (name, fallback) => Number(text(name, fallback));
const scenario = text('scenario', null);
const sceneName = scenario ? path.basename(scenario).replace(/\.[^.]*$/, '') : text('scene', 'crossing');
// Agents, balls or spheres, whichever the scene holds (a scenario file says how many itself).
let agents = scenario ? null : arg('count', arg('agents', 10000));
const seconds = arg('seconds', 10);
const stepsPerSecond = arg('steps-per-second', 30);

const server = await startServer([
  ...(scenario ? [scenario] : ['--scene', sceneName, '--count', String(agents)]),
  '--steps-per-second', String(stepsPerSecond),
]);
const browser = await launchBrowser({ width: 1280, height: 800 });
try {
  const page = browser.page;

  // Peer: requestAnimationFrame callbacks per second on an empty page in this browser.
  await page.goto('about:blank');
  const rafPerSecond = await page.evaluate((ms) => new Promise((resolve) => {
    let count = 0;
    const start = performance.now();
    const tick = (now) => {
      count += 1;
      if (now - start < ms) requestAnimationFrame(tick);
      else resolve((count * 1000) / (now - start));
    };
    requestAnimationFrame(tick);
  }), 3000);

  await page.goto(server.url);
  await page.waitForFunction(
    (n) => window.swerve && (n === null ? window.swerve.state.agents + window.swerve.state.balls > 0 : window.swerve.state.agents + window.swerve.state.balls === n),
    agents, { timeout: 60000 });
  if (agents === null) agents = await page.evaluate(() => window.swerve.state.agents + window.swerve.state.balls);
  await sleep(3000); // warm-up
  const a = await page.evaluate(() => ({ ...window.swerve.state, t: performance.now() }));
  await sleep(seconds * 1000);
  const b = await page.evaluate(() => ({ ...window.swerve.state, t: performance.now() }));
  const elapsed = (b.t - a.t) / 1000;
  const drawn = b.framesDrawn - a.framesDrawn;
  const received = b.framesReceived - a.framesReceived;
  const steps = b.step - a.step;
  // Drawing alone: paused (no simulation load), the page redraws all agents every frame.
  await page.click('#play');
  await page.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 60000 });
  const wheel = arg('wheel', 0);
  if (wheel) {
    const stage = await page.locator('#scene').boundingBox();
    await page.mouse.move(stage.x + stage.width / 2, stage.y + stage.height / 2);
    await page.mouse.wheel(0, wheel);
  }
  await page.evaluate(() => window.swerve.setContinuousRedraw(true));
  await sleep(1000);
  const c = await page.evaluate(() => ({ ...window.swerve.state, t: performance.now() }));
  await sleep(5000);
  const d = await page.evaluate(() => ({ ...window.swerve.state, t: performance.now() }));
  await page.evaluate(() => window.swerve.setContinuousRedraw(false));
  const pausedDrawn = d.framesDrawn - c.framesDrawn;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const box = await page.evaluate(() => window.swerve.agentBox());
  // Without agents (balls, spheres) the whole scene canvas.
  const clip = box
    ? { x: Math.max(0, box.x - 10), y: Math.max(0, box.y - 10), width: box.width + 20, height: box.height + 20 }
    : await page.locator('#scene').boundingBox();
  await page.screenshot({ path: path.join(SCREENSHOTS, `viewer-${sceneName}-${agents}.png`), clip });
  const result = {
    scene: sceneName,
    bodies: agents,
    triangles: b.triangles,
    depth_buffered: Boolean(b.depthBuffered),
    target_steps_per_second: stepsPerSecond,
    ...(wheel ? { wheel, paused_camera_distance: Number((await page.evaluate(() => window.swerve.camera.distance)).toFixed(1)) } : {}),
    seconds: Number(elapsed.toFixed(2)),
    drawn_fps: Number((drawn / elapsed).toFixed(1)),
    data_fps: Number((received / elapsed).toFixed(1)),
    simulated_steps_per_second: Number((steps / elapsed).toFixed(1)),
    mean_draw_ms: Number(((b.drawMsTotal - a.drawMsTotal) / Math.max(drawn, 1)).toFixed(2)),
    last_step_ms: Number(b.stepMs.toFixed(2)),
    paused_redraw_fps: Number(((pausedDrawn * 1000) / (d.t - c.t)).toFixed(1)),
    paused_mean_draw_ms: Number(((d.drawMsTotal - c.drawMsTotal) / Math.max(pausedDrawn, 1)).toFixed(2)),
    empty_page_raf_per_second: Number(rafPerSecond.toFixed(1)),
  };
  result.drawn_fps_over_raf = Number((result.drawn_fps / result.empty_page_raf_per_second).toFixed(2));
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  stopServer(server);
}
