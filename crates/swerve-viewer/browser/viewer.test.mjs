// The viewer in a real (Debian) Chromium: agents are drawn and move, pause stops them, one
// step advances exactly one step, and the inspector shows as many half-planes as the library
// computed for the clicked agent at that step; in 3-D, spheres and triangles are drawn, a drag
// orbits, a sphere through a triangle is hidden by it pixel by pixel, and the inspector shows
// the library's ORCA planes (a crowd's obstacle planes apart). Screenshots go to
// target/viewer-screenshots/ (docs/screenshots/ with SWERVE_SCREENSHOTS=docs/screenshots).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, SCREENSHOTS, getJson, launchBrowser, sleep, startServer, stopServer } from './common.mjs';

let server;
let browser;
let page;

before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  server = await startServer(['--scene', 'obstacles', '--steps-per-second', '20']);
  browser = await launchBrowser();
  page = browser.page;
  page.on('pageerror', (e) => console.error('page error:', e));
  await page.goto(server.url);
  await page.waitForFunction(() => window.swerve && window.swerve.state.step >= 3, null, { timeout: 20000 });
});

after(async () => {
  if (browser) await browser.close();
  stopServer(server);
});

const state = () => page.evaluate(() => window.swerve.state);

// The screen box around the agents, padded, for screenshots of "the agent region".
async function agentClip() {
  const box = await page.evaluate(() => window.swerve.agentBox());
  assert.ok(box, 'no agents on the page');
  const pad = 20;
  return { x: Math.max(0, box.x - pad), y: Math.max(0, box.y - pad), width: box.width + 2 * pad, height: box.height + 2 * pad };
}

// Pixels of colour `rgb` (within `tolerance` per channel) on `on`'s scene canvas.
const pixelsOf = (on, rgb, tolerance) => on.evaluate(([[r, g, b], tol]) => {
  const canvas = document.getElementById('scene');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let count = 0;
  for (let k = 0; k < data.length; k += 4) {
    if (Math.abs(data[k] - r) < tol && Math.abs(data[k + 1] - g) < tol && Math.abs(data[k + 2] - b) < tol) count += 1;
  }
  return count;
}, [rgb, tolerance]);

// Pixels of the agent colour (#3182ce) on the scene canvas.
const agentPixels = () => pixelsOf(page, [49, 130, 206], 8);

test('the canvas shows the agents and they move', { timeout: 60000 }, async () => {
  const first = await state();
  assert.equal(first.agents, 100);
  assert.equal(first.playing, true);
  // 100 discs of radius 2 m; at the fitted zoom each covers well over 10 pixels.
  assert.ok((await agentPixels()) > 100 * 10, 'the agents are not drawn');
  const clip = await agentClip();
  const before = await page.screenshot({ clip, path: path.join(SCREENSHOTS, 'viewer-scene.png') });
  await page.waitForFunction((step) => window.swerve.state.step >= step + 10, first.step, { timeout: 20000 });
  const later = await page.screenshot({ clip });
  assert.ok(!before.equals(later), 'two screenshots of the agent region 10 steps apart are identical');
});

test('pause stops the motion', { timeout: 60000 }, async () => {
  await page.click('#play');
  await page.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
  assert.equal(await page.textContent('#play'), 'Play');
  const paused = await state();
  const clip = await agentClip();
  const a = await page.screenshot({ clip });
  await sleep(1000);
  const b = await page.screenshot({ clip });
  const still = await state();
  assert.equal(still.step, paused.step, 'the step counter moved while paused');
  assert.ok(a.equals(b), 'the picture changed while paused');
  const server = await getJson(`${serverUrl()}api/state`);
  assert.equal(server.playing, false);
  assert.equal(server.step, paused.step);
});

test('step advances exactly one step and stays paused', { timeout: 30000 }, async () => {
  const before = await state();
  await page.click('#step');
  await page.waitForFunction((step) => window.swerve.state.step === step + 1, before.step, { timeout: 10000 });
  await sleep(300);
  const after = await state();
  assert.equal(after.step, before.step + 1);
  assert.equal(after.playing, false);
});

test('clicking an agent opens the inspector with the library\'s half-planes', { timeout: 60000 }, async () => {
  const { step } = await state();
  // The library's per-agent counts at this step; pick the agent with the most obstacle
  // half-planes that also has agent half-planes, so both kinds are shown.
  const summary = await getJson(`${serverUrl()}api/agents`);
  assert.equal(summary.step, step);
  const candidates = summary.agents.filter(([, total, obstacle]) => obstacle > 0 && total > obstacle);
  assert.ok(candidates.length > 0, 'no agent has both obstacle and agent half-planes');
  candidates.sort((p, q) => q[2] - p[2]);
  const [id] = candidates[0];
  const index = summary.agents.findIndex(([a]) => a === id);
  const at = await page.evaluate((i) => window.swerve.agentScreenPosition(i), index);
  assert.ok(await page.isHidden('#inspector'));
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(
    ([agent, step]) => window.swerve.inspector.agent === agent && window.swerve.inspector.step === step,
    [id, step],
    { timeout: 10000 },
  );
  assert.ok(await page.isVisible('#inspector'));
  const library = await getJson(`${serverUrl()}api/inspect/${id}`);
  assert.equal(library.step, step);
  const shown = Number(await page.textContent('#insp-half-planes'));
  const drawn = Number(await page.getAttribute('#insp-half-planes', 'data-drawn'));
  const inspector = await page.evaluate(() => window.swerve.inspector);
  assert.equal(shown, library.half_planes.length, 'half-planes shown ≠ the library\'s count');
  assert.equal(drawn, library.half_planes.length, 'half-planes drawn ≠ the library\'s count');
  assert.equal(Number(await page.textContent('#insp-obstacle-planes')), library.obstacle_half_planes);
  assert.equal(Number(await page.textContent('#insp-agent-planes')), library.agent_half_planes);
  assert.equal(inspector.drawnObstacle, library.obstacle_half_planes);
  assert.equal(inspector.neighbors, library.neighbors.length);
  assert.ok((await page.textContent('#insp-lp')).startsWith(library.outcome.program));
  assert.equal(await page.locator('#insp-table tbody tr').count(), library.half_planes.length);
  assert.equal(await page.locator('#insp-table tbody tr.obstacle').count(), library.obstacle_half_planes);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'viewer-inspector.png') });
});

test('zoom and pan move the view, speed reaches the server', { timeout: 30000 }, async () => {
  const before = await page.evaluate(() => window.swerve.agentScreenPosition(0));
  const canvas = await page.locator('#scene').boundingBox();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((r) => window.swerve.agentScreenPosition(0).radius > 1.5 * r, before.radius, { timeout: 5000 });
  const zoomed = await page.evaluate(() => window.swerve.agentScreenPosition(0));
  await page.mouse.move(canvas.x + 100, canvas.y + 100);
  await page.mouse.down();
  await page.mouse.move(canvas.x + 160, canvas.y + 140, { steps: 5 });
  await page.mouse.up();
  const panned = await page.evaluate(() => window.swerve.agentScreenPosition(0));
  assert.ok(Math.abs(panned.x - zoomed.x - 60) < 1 && Math.abs(panned.y - zoomed.y - 40) < 1, 'the drag did not pan by its length');
  await page.click('#fit');
  await page.check('#speed-max');
  let state;
  for (let k = 0; k < 50; k++) {
    state = await getJson(`${serverUrl()}api/state`);
    if (state.steps_per_second === 0) break;
    await sleep(100);
  }
  assert.equal(state.steps_per_second, 0);
  await page.uncheck('#speed-max');
  await page.locator('#speed').fill('20');
  for (let k = 0; k < 50; k++) {
    state = await getJson(`${serverUrl()}api/state`);
    if (state.steps_per_second === 20) break;
    await sleep(100);
  }
  assert.equal(state.steps_per_second, 20);
});

test('neighbour links and trails can be shown', { timeout: 60000 }, async () => {
  await page.check('#links');
  await page.check('#trails');
  await page.click('#play');
  const { step } = await state();
  await page.waitForFunction((s) => window.swerve.state.links > 0 && window.swerve.state.step >= s + 20, step, { timeout: 20000 });
  await page.click('#play');
  await page.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
  await sleep(200);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'viewer-links-trails.png') });
});

test('reset goes back to step 0 under a new scene version', { timeout: 30000 }, async () => {
  const before = await state();
  assert.equal(before.connected, true, 'the page lost its connection before the reset');
  await page.click('#reset');
  try {
    await page.waitForFunction((v) => window.swerve.state.version === v + 1 && window.swerve.state.step === 0, before.version, { timeout: 10000 });
  } catch (e) {
    // (Seen once in CI, not reproduced since: say what the page and the server held.)
    const pageNow = await state();
    const serverNow = await getJson(`${serverUrl()}api/state`);
    throw new Error(`${e.message}; before ${JSON.stringify(before)}; page now ${JSON.stringify(pageNow)}; server ${JSON.stringify(serverNow)}`);
  }
});

test('ball scene: live broad-phase switch, its structure, and the library\'s pair counts', { timeout: 90000 }, async () => {
  const balls = await startServer(['--scene', 'balls', '--count', '1800', '--steps-per-second', '30']);
  const ballPage = await browser.context.newPage();
  try {
    ballPage.on('pageerror', (e) => console.error('page error:', e));
    await ballPage.goto(balls.url);
    await ballPage.waitForFunction(() => window.swerve && window.swerve.state.balls === 1800 && window.swerve.state.step > 2, null, { timeout: 20000 });
    assert.ok(await ballPage.isVisible('#broad-phase'));
    await ballPage.check('#structure');
    for (const kind of ['quadtree', 'sort-and-sweep', 'aabb-tree', 'uniform-grid']) {
      const { step } = await ballPage.evaluate(() => window.swerve.state);
      await ballPage.selectOption('#broad-phase', kind);
      // A frame stepped with the new broad phase, carrying its boxes.
      await ballPage.waitForFunction(
        ([k, s]) => window.swerve.state.broadPhase === k && window.swerve.state.boxes > 0 && window.swerve.state.step > s,
        [kind, step],
        { timeout: 20000 },
      );
      assert.equal((await getJson(`${balls.url}api/state`)).broad_phase, kind);
    }
    // The top-left corner of the box, with the toolbar and status bar cut away: small PNG.
    await ballPage.screenshot({ path: path.join(SCREENSHOTS, 'viewer-balls-uniform-grid.png'), clip: { x: 0, y: 80, width: 560, height: 330 } });
    await ballPage.click('#play');
    await ballPage.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const shown = await ballPage.evaluate(() => window.swerve.state);
    const library = await getJson(`${balls.url}api/state`);
    assert.equal(shown.step, library.step);
    assert.ok(library.candidate_pairs > 0, 'no candidate pairs in a box of 1800 balls');
    assert.equal(shown.candidatePairs, library.candidate_pairs);
    assert.equal(shown.contacts, library.contacts);
    assert.equal(Number(await ballPage.textContent('#st-pairs')), library.candidate_pairs);
  } finally {
    await ballPage.close();
    stopServer(balls);
  }
});

test('rough balls show their spin: the sandpile\'s frames carry angles and each turned ball gets a spoke', { timeout: 90000 }, async () => {
  const pile = await startServer(['sandpile', '--steps-per-second', '60']);
  const pilePage = await browser.context.newPage();
  try {
    pilePage.on('pageerror', (e) => console.error('page error:', e));
    await pilePage.goto(pile.url);
    await pilePage.waitForFunction(() => window.swerve && window.swerve.state.balls === 400 && window.swerve.state.turnedBalls > 100, null, { timeout: 30000 });
    // Pixels of the spoke colour (#744210) on the scene canvas: the spokes are drawn.
    const spokes = await pixelsOf(pilePage, [0x74, 0x42, 0x10], 12);
    assert.ok(spokes > 100, `only ${spokes} spoke pixels for ${(await pilePage.evaluate(() => window.swerve.state)).turnedBalls} turned balls`);
    await pilePage.screenshot({ path: path.join(SCREENSHOTS, 'viewer-sandpile.png') });
  } finally {
    await pilePage.close();
    stopServer(pile);
  }
});

// ----- 3-D scenes -----

// Opens `args`' server in a new page of the shared browser and waits until `ready` holds.
async function open3d(args, ready) {
  const server3d = await startServer(args);
  const page3d = await browser.context.newPage();
  page3d.on('pageerror', (e) => console.error('page error:', e));
  await page3d.goto(server3d.url);
  await page3d.waitForFunction(ready, null, { timeout: 30000 });
  return { server3d, page3d };
}

const canvasClip = async (on) => {
  const box = await on.locator('#scene').boundingBox();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
};

// Pixels on `on`'s scene canvas for which `test(r, g, b)` holds (a function's source text).
const pixelsWhere = (on, test) => on.evaluate((source) => {
  const f = new Function('r', 'g', 'b', `return (${source});`);
  const canvas = document.getElementById('scene');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let count = 0;
  for (let k = 0; k < data.length; k += 4) if (f(data[k], data[k + 1], data[k + 2])) count += 1;
  return count;
}, test);

test('3-D pit: shaded spheres are drawn and fall, a drag orbits, shift-drag pans, the wheel zooms', { timeout: 120000 }, async () => {
  const { server3d, page3d } = await open3d(['--scene', 'pit3d', '--count', '3000', '--steps-per-second', '30'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.balls === 3000 && window.swerve.state.step > 3);
  try {
    const first = await page3d.evaluate(() => window.swerve.state);
    assert.equal(first.drawnSpheres, 3000);
    assert.equal(first.rasterPath, true, '3,000 small spheres take the pixel-copy path');
    assert.equal(first.depthBuffered, false, 'no triangles, yet the depth buffer');
    // The spheres' blue (#3182ce, shaded): blue well above red.
    const blue = await pixelsWhere(page3d, 'b - r > 80 && b > 120');
    assert.ok(blue > 20000, `only ${blue} sphere pixels for 3000 spheres`);
    const library = await getJson(`${server3d.url}api/state`);
    assert.equal(library.balls, 3000);
    const clip = await canvasClip(page3d);
    const before = await page3d.screenshot({ clip });
    await page3d.waitForFunction((s) => window.swerve.state.step >= s + 10, first.step, { timeout: 20000 });
    const later = await page3d.screenshot({ clip });
    assert.ok(!before.equals(later), 'the pour did not move in 10 steps');

    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const still = await page3d.screenshot({ clip });
    await sleep(500);
    assert.ok(still.equals(await page3d.screenshot({ clip })), 'the picture changed while paused');
    const camera = await page3d.evaluate(() => window.swerve.camera);
    await page3d.mouse.move(clip.x + 300, clip.y + 300);
    await page3d.mouse.down();
    await page3d.mouse.move(clip.x + 420, clip.y + 250, { steps: 6 });
    await page3d.mouse.up();
    await sleep(200);
    const orbited = await page3d.evaluate(() => window.swerve.camera);
    assert.ok(Math.abs(orbited.yaw - camera.yaw) > 0.5 && Math.abs(orbited.pitch - camera.pitch) > 0.1, 'the drag did not orbit');
    assert.deepEqual(orbited.target, camera.target, 'a plain drag moved the target');
    assert.ok(!still.equals(await page3d.screenshot({ clip })), 'the orbit did not change the picture');
    await page3d.keyboard.down('Shift');
    await page3d.mouse.move(clip.x + 300, clip.y + 300);
    await page3d.mouse.down();
    await page3d.mouse.move(clip.x + 360, clip.y + 300, { steps: 4 });
    await page3d.mouse.up();
    await page3d.keyboard.up('Shift');
    const panned = await page3d.evaluate(() => window.swerve.camera);
    assert.equal(panned.yaw, orbited.yaw, 'a shift-drag orbited');
    assert.notDeepEqual(panned.target, orbited.target, 'the shift-drag did not pan');
    await page3d.mouse.wheel(0, -400);
    await page3d.waitForFunction((d) => window.swerve.camera.distance < 0.8 * d, panned.distance, { timeout: 5000 });
    await page3d.keyboard.press('f');
    // For the screenshot: the pile after the pour (as fast as possible to step 400), seen from
    // the default angle after a drag back.
    await page3d.check('#speed-max');
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.step >= 400, null, { timeout: 60000 });
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await page3d.mouse.move(clip.x + 420, clip.y + 250);
    await page3d.mouse.down();
    await page3d.mouse.move(clip.x + 300, clip.y + 300, { steps: 6 });
    await page3d.mouse.up();
    await page3d.keyboard.press('f');
    // A step back, so the whole box fits a small picture.
    await page3d.mouse.move(clip.x + clip.width / 2, clip.y + clip.height / 2);
    await page3d.mouse.wheel(0, 250);
    await sleep(300);
    const [cx, cy] = [clip.x + clip.width / 2, clip.y + clip.height / 2];
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-pit.png'), clip: { x: cx - 250, y: cy - 210, width: 500, height: 420 } });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
});

test('3-D scenario file: the hourglass\'s static triangles are drawn', { timeout: 90000 }, async () => {
  const file = path.join(ROOT, 'scenarios/hourglass3d.toml');
  const { server3d, page3d } = await open3d([file, '--steps-per-second', '30'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.step > 60);
  try {
    const state = await page3d.evaluate(() => window.swerve.state);
    assert.equal(state.triangles, 9);
    assert.equal(state.drawnTriangles, 9);
    assert.equal(state.balls, 601);
    // Amber of the translucent faces and their edges: red well above blue, not the grey box.
    const amber = await pixelsWhere(page3d, 'r - b > 35 && g - b > 15 && r > 150');
    assert.ok(amber > 15000, `only ${amber} triangle pixels`);
    // 601 spheres and triangles: drawn with a depth buffer, not the pit's pixel-copy path for
    // many spheres and no triangles.
    assert.equal(state.rasterPath, false);
    assert.equal(state.depthBuffered, true);
    assert.equal(state.drawnSpheres, 601);
    const blue = await pixelsWhere(page3d, 'b - r > 80 && b > 120');
    assert.ok(blue > 3000, `only ${blue} sphere pixels for 601 spheres`);
    const clip = await canvasClip(page3d);
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-hourglass.png'), clip: { x: clip.x + 330, y: clip.y, width: 520, height: clip.height } });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
});

test('3-D crowd: clicking the front-most agent opens the inspector with the library\'s ORCA planes', { timeout: 90000 }, async () => {
  const { server3d, page3d } = await open3d(['--scene', 'sphere3d', '--steps-per-second', '20'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.agents === 400 && window.swerve.state.step >= 10);
  try {
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const { step } = await page3d.evaluate(() => window.swerve.state);
    // A point where two or more agents are drawn over each other (the far side of the sphere
    // shows through the near side): a click there must pick the one in front, the nearest
    // to the eye of those whose drawn disc (at least 6 px) covers it.
    const front = await page3d.evaluate(() => {
      const all = [];
      for (let i = 0; i < window.swerve.state.agents; i++) all.push(window.swerve.agentScreenPosition(i));
      for (const p of all) {
        if (!p) continue;
        const covering = all.map((q, j) => ({ ...q, index: j }))
          .filter((q) => q.x !== undefined && Math.hypot(q.x - p.x, q.y - p.y) <= Math.max(q.radius, 6) - 0.5);
        if (covering.length < 2) continue;
        covering.sort((a, b) => a.depth - b.depth);
        return { x: p.x, y: p.y, index: covering[0].index, covering: covering.length };
      }
      return null;
    });
    assert.ok(front, 'no two agents are drawn over each other');
    const summary = await getJson(`${server3d.url}api/agents`);
    assert.equal(summary.step, step);
    const [id, planes] = summary.agents[front.index];
    assert.ok(planes > 0, 'the front agent has no planes');
    assert.ok(await page3d.isHidden('#inspector'));
    await page3d.mouse.click(front.x, front.y);
    await page3d.waitForFunction((s) => window.swerve.inspector.agent !== null && window.swerve.inspector.step === s, step, { timeout: 10000 });
    assert.equal((await page3d.evaluate(() => window.swerve.inspector)).agent, id, `not the front one of ${front.covering} agents under the cursor`);
    assert.ok(await page3d.isVisible('#inspector'));
    const library = await getJson(`${server3d.url}api/inspect/${id}`);
    assert.equal(library.dimensions, 3);
    assert.equal(library.step, step);
    assert.equal(library.planes.length, planes);
    const shown = Number(await page3d.textContent('#insp-half-planes'));
    const drawn = Number(await page3d.getAttribute('#insp-half-planes', 'data-drawn'));
    const finite = library.planes.filter((p) => [...p.point, ...p.normal].every((x) => typeof x === 'number')).length;
    assert.equal(shown, library.planes.length, 'planes shown ≠ the library\'s count');
    assert.equal(drawn, finite, 'planes drawn ≠ the library\'s finite planes');
    assert.equal(await page3d.locator('#insp-table tbody tr').count(), library.planes.length);
    assert.equal((await page3d.evaluate(() => window.swerve.inspector)).neighbors, library.neighbors.length);
    assert.ok((await page3d.textContent('#insp-lp')).startsWith(library.outcome.program));
    // The velocity space is drawn: the plane discs' blue on the inspector's canvas.
    const discs = await page3d.evaluate(() => {
      const c = document.getElementById('velocity');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 2] - d[i] > 40) k += 1;
      return k;
    });
    assert.ok(discs > 500, `only ${discs} plane pixels in the velocity space`);

    // Into the crush at the centre, where RVO2-3D's planes conflict: an agent whose velocity
    // came from the fallback (LP4), for the screenshot.
    await page3d.locator('#speed').fill('240');
    await page3d.click('#play');
    let crush = null;
    for (let k = 0; k < 200 && !crush; k++) {
      await sleep(100);
      const agents = (await getJson(`${server3d.url}api/agents`)).agents;
      if (agents.some(([, , , lp]) => lp === 'LP4')) crush = agents;
    }
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const paused = await getJson(`${server3d.url}api/agents`);
    const fallback = paused.agents.find(([, planes, , lp]) => lp === 'LP4' && planes > 2);
    if (crush && fallback) {
      await page3d.evaluate((agent) => window.swerve.inspect(agent), fallback[0]);
      await page3d.waitForFunction(([agent, s]) => window.swerve.inspector.agent === agent && window.swerve.inspector.step === s,
        [fallback[0], paused.step], { timeout: 10000 });
      assert.ok((await page3d.textContent('#insp-lp')).startsWith('LP4'));
      assert.equal(Number(await page3d.textContent('#insp-half-planes')), fallback[1]);
    }
    // Closer to the crush, which is at the centre of the (narrowed) scene canvas.
    const stage = await canvasClip(page3d);
    await page3d.mouse.move(stage.x + stage.width / 2, stage.y + stage.height / 2);
    await page3d.mouse.wheel(0, -200);
    await sleep(300);
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-inspector.png'), clip: { x: stage.x + stage.width / 2 - 170, y: 40, width: 1200 - (stage.x + stage.width / 2 - 170), height: 520 } });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
});

test('3-D towers: the crowd\'s obstacles are drawn and the inspector shows a drone\'s obstacle planes as their own kind', { timeout: 120000 }, async () => {
  const { server3d, page3d } = await open3d(['--scene', 'towers3d', '--count', '40', '--steps-per-second', '240'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.agents === 40 && window.swerve.state.step >= 240);
  try {
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const state = await page3d.evaluate(() => window.swerve.state);
    // The description carries the floor's 2 triangles and 12 per tower, all drawn (depth-tested
    // with the drones).
    assert.ok(state.triangles > 100 && (state.triangles - 2) % 12 === 0, `${state.triangles} triangles`);
    assert.equal(state.drawnTriangles, state.triangles);
    assert.equal(state.depthBuffered, true);
    assert.equal(state.drawnSpheres, 40);
    // A tower's translucent amber face over the floor's is a deeper amber than the floor alone
    // (blue falls from 193 to about 152): the towers are drawn, not only the floor.
    const towerPixels = await pixelsWhere(page3d, 'r - b > 75 && r > 150');
    assert.ok(towerPixels > 8000, `only ${towerPixels} pixels of towers over the floor`);

    // A drone near a tower: the library gives it obstacle planes, one at least from a wall
    // (vertical, unlike the floor's), and no drone nearer the eye is drawn over it, so a click
    // on it picks it.
    const summary = await getJson(`${server3d.url}api/agents`);
    assert.equal(summary.step, state.step);
    let chosen = null;
    for (const [index, [id, , obstacle]] of summary.agents.entries()) {
      if (obstacle === 0) continue;
      const report = await getJson(`${server3d.url}api/inspect/${id}`);
      const wall = report.planes.slice(0, report.obstacle_planes).some((p) => Math.abs(p.normal[2]) < 0.5);
      const clear = await page3d.evaluate((i) => {
        const p = window.swerve.agentScreenPosition(i);
        if (!p) return null;
        for (let j = 0; j < window.swerve.state.agents; j++) {
          const q = window.swerve.agentScreenPosition(j);
          if (j !== i && q && q.depth < p.depth && Math.hypot(q.x - p.x, q.y - p.y) <= Math.max(q.radius, 6) + 1) return null;
        }
        return p;
      }, index);
      if (wall && clear) {
        chosen = { id, report, at: clear };
        break;
      }
    }
    assert.ok(chosen, 'no drone near a tower can be clicked');
    assert.ok(chosen.report.obstacle_planes > 0);
    await page3d.mouse.click(chosen.at.x, chosen.at.y);
    await page3d.waitForFunction(([id, s]) => window.swerve.inspector.agent === id && window.swerve.inspector.step === s,
      [chosen.id, state.step], { timeout: 10000 });
    const inspector = await page3d.evaluate(() => window.swerve.inspector);
    assert.equal(inspector.obstacleHalfPlanes, chosen.report.obstacle_planes);
    assert.equal(inspector.agentHalfPlanes, chosen.report.agent_planes);
    assert.equal(Number(await page3d.textContent('#insp-obstacle-planes')), chosen.report.obstacle_planes);
    assert.equal(Number(await page3d.textContent('#insp-agent-planes')), chosen.report.agent_planes);
    assert.equal(Number(await page3d.textContent('#insp-half-planes')), chosen.report.planes.length);
    assert.ok(await page3d.isVisible('#insp-obstacle-key'));
    assert.equal(await page3d.locator('#insp-table tbody tr.obstacle').count(), chosen.report.obstacle_planes);
    assert.ok((await page3d.textContent('#insp-horizons')).includes('obstacles 3 s'));
    // Drawn in their own colour: the obstacle planes' orange (#dd6b20) on the velocity space,
    // as many of them drawn as the library has (finite ones; a wall's always is).
    const finite = (p) => [...p.point, ...p.normal].every((x) => typeof x === 'number');
    assert.equal(inspector.drawnObstacle, chosen.report.planes.slice(0, chosen.report.obstacle_planes).filter(finite).length);
    const orange = await page3d.evaluate(() => {
      const c = document.getElementById('velocity');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] - d[i + 2] > 60 && d[i + 1] - d[i + 2] > 20 && d[i] > 150) k += 1;
      return k;
    });
    assert.ok(orange > 40, `only ${orange} obstacle-plane pixels in the velocity space`);
    const stage = await canvasClip(page3d);
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-towers.png'), clip: { x: stage.x, y: 40, width: 1200 - stage.x, height: 600 } });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
});

function serverUrl() {
  return server.url;
}

// ----- 3-D occlusion: a sphere through a triangle -----

// One sphere (radius 5 m at the origin) through one big horizontal triangle (z = 0) whose
// centroid is 3.7 m from the sphere's centre, so that painting by one depth per item puts
// the triangle wholly in front of the sphere from one side and wholly behind from the other.
const CROSSING_SCENARIO = `name = "sphere-through-triangle"
description = "one sphere through one big triangle (the viewer's occlusion test)"
time_step = 0.016666668
steps = 10

[spheres]
bounds = { min = [-20.0, -20.0, -20.0], max = [20.0, 20.0, 20.0] }
gravity = [0.0, 0.0, 0.0]

[[spheres.triangle]]
corners = [[-19.0, -15.0, 0.0], [19.0, -15.0, 0.0], [0.0, 19.0, 0.0]]

[[spheres.sphere]]
position = [0.0, 0.0, 0.0]
radius = 5.0
`;

// The colour drawn where the sphere's surface point in direction (`f` × forward + `u` × up of
// the camera, normalised) lands on the screen. The projection is the page's camera model
// (viewer.js, "3-D": 45° vertical field of view, orbit around the target), recomputed here
// from window.swerve.camera so that the test does not rely on the page's drawing code.
const sphereSurfacePixel = (on, radius, f, u) => on.evaluate(([radius, f, u]) => {
  const { yaw, pitch, distance, target } = window.swerve.camera;
  const canvas = document.getElementById('scene');
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const cp = Math.cos(pitch), sp = Math.sin(pitch), cy = Math.cos(yaw), sy = Math.sin(yaw);
  const fw = [-cp * cy, -cp * sy, -sp], right = [-sy, cy, 0];
  const up = [right[1] * fw[2] - right[2] * fw[1], right[2] * fw[0] - right[0] * fw[2], right[0] * fw[1] - right[1] * fw[0]];
  const eye = target.map((t, k) => t - fw[k] * distance);
  const n = [0, 1, 2].map((k) => f * fw[k] + u * up[k]);
  const len = Math.hypot(...n);
  const p = n.map((x) => (radius * x) / len); // the sphere is at the origin
  const d = p.map((x, k) => x - eye[k]);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const focal = h / 2 / Math.tan((45 * Math.PI) / 180 / 2);
  const depth = dot(d, fw);
  const sx = w / 2 + (dot(d, right) * focal) / depth, sy2 = h / 2 - (dot(d, up) * focal) / depth;
  const dpr = canvas.width / w;
  const [r, g, b] = canvas.getContext('2d').getImageData(Math.floor(sx * dpr), Math.floor(sy2 * dpr), 1, 1).data;
  return { x: sx, y: sy2, z: p[2], rgb: [r, g, b] };
}, [radius, f, u]);

test('3-D crowd scenario file: window3d\'s wall, floor, drones and mover sphere are drawn', { timeout: 90000 }, async () => {
  const { server3d, page3d } = await open3d(['window3d', '--steps-per-second', '60'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.step >= 20);
  try {
    await page3d.click('#play');
    await page3d.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    await sleep(300);
    const state = await page3d.evaluate(() => window.swerve.state);
    // The file's four wall boxes (12 triangles each) and its floor (2), all drawn.
    assert.equal(state.triangles, 4 * 12 + 2);
    assert.equal(state.drawnTriangles, state.triangles);
    // 128 drones, and the mover, which travels in the frames as the one sphere.
    assert.equal(state.agents, 128);
    assert.equal(state.balls, 1);
    assert.equal(state.drawnSpheres, 129);
    const clip = await canvasClip(page3d);
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-window.png'), clip });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
});

test('roadmap: the inspector draws the way an agent of RVO2\'s Roadmap example means to walk round the blocks', { timeout: 90000 }, async () => {
  const { server3d: served, page3d: page2d } = await open3d(['roadmap', '--paused'],
    () => window.swerve && window.swerve.state.dimensions === 2 && window.swerve.state.agents === 100);
  try {
    await page2d.click('#step');
    await page2d.evaluate(() => window.swerve.inspect(0));
    await page2d.waitForFunction(() => window.swerve.inspector.agent === 0 && window.swerve.inspector.step >= 1 &&
      window.swerve.inspector.route.length >= 3, null, { timeout: 10000 });
    const inspector = await page2d.evaluate(() => window.swerve.inspector);
    const library = await getJson(`${served.url}api/inspect/0`);
    assert.equal(library.step, inspector.step);
    assert.deepEqual(inspector.route, library.route, 'the route drawn is not the library\'s');
    const route = library.route;
    assert.deepEqual(route[0], library.position);
    // Its waypoints are the blocks' corner vertices, 2 m out from the 10–40 m blocks (|x|
    // and |y| near 8 or 42), and the last is its goal, across the field.
    for (const [x, y] of route.slice(1, -1)) {
      const near = (v) => Math.abs(Math.abs(v) - 8) < 0.01 || Math.abs(Math.abs(v) - 42) < 0.01;
      assert.ok(near(x) && near(y), `waypoint (${x}, ${y}) is not a block corner`);
    }
    const goal = route[route.length - 1];
    assert.ok(Math.sign(goal[0]) !== Math.sign(route[0][0]) && Math.sign(goal[1]) !== Math.sign(route[0][1]), `goal ${goal}`);
    assert.match(await page2d.textContent('#insp-pref'), /roadmap: \d+ waypoints? to the goal/);
    await page2d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-roadmap-route.png') });
  } finally {
    await page2d.close();
    stopServer(served);
  }
});

test('3-D roadmap: the inspector draws the way a slalom3d drone means to fly, through both offset windows', { timeout: 90000 }, async () => {
  const { server3d, page3d } = await open3d(['slalom3d', '--paused'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.agents === 54);
  try {
    // Drone 0 (the west swarm's first) decides once, then the inspector follows it.
    await page3d.click('#step');
    await page3d.evaluate(() => window.swerve.inspect(0));
    await page3d.waitForFunction(() => window.swerve.inspector.agent === 0 && window.swerve.inspector.step >= 1 &&
      window.swerve.inspector.route.length >= 3, null, { timeout: 10000 });
    const shown = (await page3d.evaluate(() => window.swerve.inspector)).route;
    const library = await getJson(`${server3d.url}api/inspect/0`);
    assert.equal(library.step, (await page3d.evaluate(() => window.swerve.inspector)).step);
    assert.deepEqual(shown, library.route, 'the route drawn is not the library\'s');
    // It starts at the drone and ends at its goal, 100 m east of where it started (the
    // lattice's first corner, (-54, -4, 16)).
    const start = library.route[0], goal = library.route[library.route.length - 1];
    assert.deepEqual(start, library.position);
    assert.deepEqual(goal, [46, -4, 16]);
    // ... and crosses each wall in its window: x = -15 at y in (-24, -12), x = 15 at y in (12, 24), z in (14, 26).
    const crossing = (x) => {
      for (let k = 1; k < library.route.length; k++) {
        const [a, b] = [library.route[k - 1], library.route[k]];
        if ((a[0] < x) !== (b[0] < x)) {
          const t = (x - a[0]) / (b[0] - a[0]);
          return [a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];
        }
      }
      return null;
    };
    const [west, east] = [crossing(-15), crossing(15)];
    assert.ok(west && west[0] > -24 && west[0] < -12 && west[1] > 14 && west[1] < 26, `crosses the west wall at ${west}`);
    assert.ok(east && east[0] > 12 && east[0] < 24 && east[1] > 14 && east[1] < 26, `crosses the east wall at ${east}`);
    assert.match(await page3d.textContent('#insp-pref'), /roadmap: \d+ waypoints? to the goal/);
    // A crowd flying straight has no route.
    const clip = await canvasClip(page3d);
    await page3d.screenshot({ path: path.join(SCREENSHOTS, 'viewer-3d-roadmap.png'), clip });
  } finally {
    await page3d.close();
    stopServer(server3d);
  }
  const { server3d: plain, page3d: straight } = await open3d(['window3d', '--paused'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.agents === 128);
  try {
    await straight.click('#step');
    const library = await getJson(`${plain.url}api/inspect/0`);
    assert.equal(library.step, 1);
    assert.deepEqual(library.route, []);
  } finally {
    await straight.close();
    stopServer(plain);
  }
});

test('3-D occlusion: a sphere through a triangle is in front above it and tinted below it, from either side', { timeout: 90000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swerve-viewer-occlusion-'));
  const file = path.join(dir, 'sphere-through-triangle.toml');
  writeFileSync(file, CROSSING_SCENARIO);
  const { server3d, page3d } = await open3d([file, '--paused'],
    () => window.swerve && window.swerve.state.dimensions === 3 && window.swerve.state.balls === 1 && window.swerve.state.triangles === 1);
  try {
    const clip = await canvasClip(page3d);
    const check = async (side) => {
      await sleep(300);
      const camera = await page3d.evaluate(() => window.swerve.camera);
      assert.ok(camera.pitch > 0.2, 'the camera is not above the triangle\'s plane');
      // Facing the eye, tilted up: above the plane z = 0, nearer than the triangle there.
      const front = await sphereSurfacePixel(page3d, 5, -0.7, 0.7);
      // Facing the eye, tilted down: below the plane, seen through the translucent triangle.
      const behind = await sphereSurfacePixel(page3d, 5, -0.7, -0.7);
      assert.ok(front.z > 2 && behind.z < -1, `${side}: sample points not on either side of the plane (${front.z}, ${behind.z})`);
      const what = `${side}: in front ${front.rgb}, behind ${behind.rgb}`;
      // The sphere's own blue shading (#3182ce) where it is in front ...
      assert.ok(front.rgb[2] - front.rgb[0] > 90, `${what}: the triangle is drawn over the sphere where the sphere is in front`);
      // ... and that blue under the triangle's amber tint (28 %) where it is behind.
      assert.ok(behind.rgb[2] - behind.rgb[0] < 60 && behind.rgb[0] > 50, `${what}: the sphere is drawn over the triangle where the triangle is in front`);
    };
    // The default view: the triangle's centroid is nearer to the eye than the sphere's centre.
    await check('default view');
    // Half a turn around: now the centroid is farther than the sphere's centre.
    await page3d.mouse.move(clip.x + 200, clip.y + 300);
    await page3d.mouse.down();
    await page3d.mouse.move(clip.x + 200 + Math.PI / 0.008, clip.y + 300, { steps: 10 });
    await page3d.mouse.up();
    await check('half a turn around');
  } finally {
    await page3d.close();
    stopServer(server3d);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an acceleration limit from a scenario file is shown in the inspector as its own kind', { timeout: 90000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swerve-acceleration-'));
  const file = path.join(dir, 'ramps.toml');
  writeFileSync(file, [
    'name = "ramps"', 'time_step = 0.25', 'steps = 100000',
    '[agent_defaults]', 'max_acceleration = 1.0',
    '[[circle]]', 'count = 8', 'ring_radius = 12.0', 'goal = "opposite"', '',
  ].join('\n'));
  const { server3d: limited, page3d: on } = await open3d([file, '--steps-per-second', '10'],
    () => window.swerve && window.swerve.state.step >= 3);
  try {
    await on.click('#play');
    await on.waitForFunction(() => window.swerve.state.playing === false, null, { timeout: 10000 });
    const { step } = await on.evaluate(() => window.swerve.state);
    const at = await on.evaluate(() => window.swerve.agentScreenPosition(0));
    await on.mouse.click(at.x, at.y);
    await on.waitForFunction((s) => window.swerve.inspector.agent === 0 && window.swerve.inspector.step === s, step, { timeout: 10000 });
    const library = await getJson(`${limited.url}api/inspect/0`);
    assert.equal(library.step, step);
    // The library's eight hard half-planes of the limit, shown and drawn as such.
    assert.equal(library.acceleration_half_planes, 8);
    assert.equal(library.half_planes.filter((h) => h.kind === 'acceleration').length, 8);
    const inspector = await on.evaluate(() => window.swerve.inspector);
    assert.equal(inspector.drawnAcceleration, 8);
    assert.equal(inspector.drawnHalfPlanes, library.half_planes.length);
    assert.equal(Number(await on.textContent('#insp-acceleration-planes')), 8);
    assert.ok(await on.isVisible('#insp-acceleration-key'));
    assert.equal(await on.locator('#insp-table tbody tr.acceleration').count(), 8);
    // Teal boundary lines in velocity space: the octagon about the agent's velocity.
    const teal = await on.evaluate(() => {
      const canvas = document.getElementById('velocity');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let k = 0; k < data.length; k += 4) {
        if (Math.abs(data[k] - 49) < 30 && Math.abs(data[k + 1] - 151) < 30 && Math.abs(data[k + 2] - 149) < 30) count += 1;
      }
      return count;
    });
    assert.ok(teal > 200, `only ${teal} teal pixels for the acceleration limit`);
    await on.screenshot({ path: path.join(SCREENSHOTS, 'viewer-inspector-acceleration.png') });
  } finally {
    await on.close();
    stopServer(limited);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('avoidance layers from a scenario file: the inspector shows them and fades the agents ignored', { timeout: 90000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swerve-layers-'));
  const file = path.join(dir, 'layers.toml');
  // Agent 0 (layers 0b100, mask 0b101) ignores agent 1 (layers 0b10) and avoids agent 2
  // (layers 1), which ignores it in turn (mask 1 has no bit of 0b100); agent 3 is alone, on
  // the defaults.
  writeFileSync(file, [
    'name = "layers"', 'time_step = 0.25', 'steps = 100000',
    '[[agents]]', 'position = [0.0, 0.0]', 'goal = [20.0, 0.0]', 'avoidance_layers = 0b100', 'avoidance_mask = 0b101',
    '[[agents]]', 'position = [5.0, 0.0]', 'avoidance_layers = 2',
    '[[agents]]', 'position = [0.0, 5.0]',
    '[[agents]]', 'position = [0.0, -40.0]', '',
  ].join('\n'));
  const { server3d: served, page3d: on } = await open3d([file, '--paused'],
    () => window.swerve && window.swerve.state.agents === 4 && window.swerve.state.step === 0);
  // The colour of the scene canvas inside agent `i`, half its radius off its centre along
  // (dx, dy): clear of the lines drawn to its neighbours and its goal, which end or pass at
  // the centres.
  const inside = (i, dx, dy) => on.evaluate(([k, dx, dy]) => {
    const at = window.swerve.agentScreenPosition(k);
    const canvas = document.getElementById('scene');
    const rect = canvas.getBoundingClientRect();
    const dpr = canvas.width / rect.width;
    const x = Math.round((at.x + 0.5 * at.radius * dx - rect.left) * dpr);
    const y = Math.round((at.y + 0.5 * at.radius * dy - rect.top) * dpr);
    return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
  }, [i, dx, dy]);
  const plainBlue = (rgb) => Math.abs(rgb[0] - 49) < 12 && Math.abs(rgb[1] - 130) < 12 && Math.abs(rgb[2] - 206) < 12;
  try {
    await on.click('#step');
    await on.waitForFunction(() => window.swerve.state.step === 1, null, { timeout: 10000 });
    const at = await on.evaluate(() => window.swerve.agentScreenPosition(0));
    await on.mouse.click(at.x, at.y);
    await on.waitForFunction(() => window.swerve.inspector.agent === 0 && window.swerve.inspector.step === 1
      && window.swerve.inspector.drawnIgnored > 0, null, { timeout: 10000 });
    const library = await getJson(`${served.url}api/inspect/0`);
    assert.equal(library.avoidance_layers, 0b100);
    assert.equal(library.avoidance_mask, 0b101);
    assert.equal(library.layers_in_use, true);
    assert.deepEqual(library.ignored, [1]);
    assert.deepEqual(library.ignored_indices, [1]);
    assert.deepEqual(library.neighbors, [2]);
    assert.deepEqual(library.avoided_alone, [2]);
    // The page shows the library's values ...
    assert.ok(await on.isVisible('#insp-layers-row'));
    const binary = (m) => `0b${m.toString(2)} (${m})`;
    assert.equal(await on.textContent('#insp-layers'), binary(library.avoidance_layers));
    assert.equal(await on.textContent('#insp-mask'), binary(library.avoidance_mask));
    assert.equal(Number(await on.textContent('#insp-ignored')), library.ignored.length);
    assert.equal(Number(await on.textContent('#insp-alone')), library.avoided_alone.length);
    const inspector = await on.evaluate(() => window.swerve.inspector);
    assert.equal(inspector.avoidanceLayers, library.avoidance_layers);
    assert.equal(inspector.avoidanceMask, library.avoidance_mask);
    assert.equal(inspector.drawnIgnored, library.ignored_indices.length);
    // ... and draws the ignored agent faded, the avoided one in the agents' full blue.
    // (Agent 1 lies on agent 0's way to its goal, agent 2 straight above it.)
    const ignored = await inside(1, 0, 1), avoided = await inside(2, 1, 0);
    assert.ok(ignored[0] > 150 && ignored[1] > 190 && ignored[2] > 220, `the ignored agent is not faded: ${ignored}`);
    assert.ok(plainBlue(avoided), `the avoided agent is not plain blue: ${avoided}`);
    await on.screenshot({ path: path.join(SCREENSHOTS, 'viewer-inspector-layers.png') });
    // An agent on the defaults with nobody near: no layers shown, nothing faded.
    await on.evaluate(() => window.swerve.inspect(3));
    await on.waitForFunction(() => window.swerve.inspector.agent === 3 && window.swerve.inspector.step === 1, null, { timeout: 10000 });
    const plain = await getJson(`${served.url}api/inspect/3`);
    assert.equal(plain.layers_in_use, false);
    assert.equal(await on.isVisible('#insp-layers-row'), false);
    assert.equal((await on.evaluate(() => window.swerve.inspector)).drawnIgnored, 0);
    await on.waitForFunction(() => window.swerve.state.framesDrawn > 0, null, { timeout: 5000 });
    await sleep(200);
    const again = await inside(1, 0, 1);
    assert.ok(plainBlue(again), `agent 1 is still faded with an agent selected that does not ignore it: ${again}`);
  } finally {
    await on.close();
    stopServer(served);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('planar movers: patrol\'s robots are drawn in grey, and without balls there is no broad-phase control', { timeout: 90000 }, async () => {
  const patrol = await startServer(['patrol', '--steps-per-second', '30']);
  const patrolPage = await browser.context.newPage();
  try {
    patrolPage.on('pageerror', (e) => console.error('page error:', e));
    await patrolPage.goto(patrol.url);
    await patrolPage.waitForFunction(() => window.swerve && window.swerve.state.step >= 10, null, { timeout: 20000 });
    // The two robots travel as the frame's only balls; the scene says they are movers.
    const shown = await patrolPage.evaluate(() => window.swerve.state);
    assert.equal(shown.agents, 48);
    assert.equal(shown.balls, 2);
    assert.ok(!(await patrolPage.isVisible('#broad-phase')), 'a broad-phase control for a scene without balls');
    assert.ok(!(await patrolPage.isVisible('#st-balls')), 'a ball count for a scene without balls');
    // Grey discs (#8a8a8a), each of the robots' area at the view's scale, and no amber balls.
    const grey = await pixelsOf(patrolPage, [138, 138, 138], 6);
    assert.ok(grey > 50, `only ${grey} grey pixels`);
    assert.equal(await pixelsOf(patrolPage, [214, 158, 46], 6), 0, 'a mover drawn as a ball');
    // The hall's walls are a clockwise boundary round the walkers: outlined, not filled.
    assert.equal(await pixelsOf(patrolPage, [160, 174, 192], 3), 0, 'the hall is filled as a solid obstacle');
    const clip = await canvasClip(patrolPage);
    await patrolPage.screenshot({ path: path.join(SCREENSHOTS, 'viewer-patrol-movers.png'), clip });
  } finally {
    await patrolPage.close();
    stopServer(patrol);
  }
});
