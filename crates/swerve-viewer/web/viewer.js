// swerve viewer: draws the frames the server streams and the inspector's velocity space.
// Every simulation value shown here comes from the server (the library); this file only
// decodes and draws. Frame layout: crates/swerve-viewer/src/frame.rs.
'use strict';

(() => {
  const MAGIC = 0x31565753; // "SWV1" read as a little-endian u32
  const HEADER_WORDS = 16;
  const TRAIL_LENGTH = 48; // frames kept per agent for trails

  const $ = (id) => document.getElementById(id);
  const sceneCanvas = $('scene');
  const sceneCtx = sceneCanvas.getContext('2d');
  const velocityCanvas = $('velocity');
  const velocityCtx = velocityCanvas.getContext('2d');

  // ----- state -----
  let scene = null; // the JSON scene description (type "scene")
  let frame = null; // the latest decoded frame of the current scene version
  let inspected = null; // the latest inspector report (type "inspect")
  let selectedId = null; // the agent id the inspector follows
  let socket = null;
  let connected = false;
  let dirty = true;
  let continuousRedraw = false; // measurement hook: redraw on every animation frame
  const view = { cx: 0, cy: 0, scale: 1, fitted: false };
  const counters = { framesReceived: 0, framesDrawn: 0, fps: 0, dataFps: 0, drawMsTotal: 0, lastDrawMs: 0 };
  const trails = { data: null, head: 0, length: 0, count: 0 };
  const inspectorState = {
    agent: null, step: null, version: null, halfPlanes: 0, obstacleHalfPlanes: 0, agentHalfPlanes: 0,
    drawnHalfPlanes: 0, drawnObstacle: 0, drawnAgent: 0, outcome: null, neighbors: 0,
  };

  // ----- connection -----
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    socket = new WebSocket(`ws://${location.host}/ws`);
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      connected = true;
      setConnection('connected', false);
      if ($('links').checked) send({ cmd: 'links', on: true });
      if ($('structure').checked) send({ cmd: 'structure', on: true });
      if (selectedId !== null) send({ cmd: 'inspect', agent: selectedId });
    };
    socket.onclose = (event) => {
      connected = false;
      setConnection(`disconnected${event.reason ? ': ' + event.reason : ''}`, true);
    };
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') onText(JSON.parse(event.data));
      else onFrame(event.data);
    };
  }

  function setConnection(text, closed) {
    const el = $('st-connection');
    el.textContent = text;
    el.classList.toggle('closed', closed);
  }

  function onText(message) {
    if (message.type === 'scene') {
      scene = message;
      frame = null;
      $('scene-name').textContent = message.name;
      if (!$('speed-max').checked && message.steps_per_second > 0) {
        $('speed').value = String(Math.round(message.steps_per_second));
        $('speed-label').textContent = `${Math.round(message.steps_per_second)} steps/s`;
      }
      trails.data = new Float32Array(TRAIL_LENGTH * 2 * message.ids.length);
      trails.head = 0;
      trails.length = 0;
      trails.count = message.ids.length;
      const hasBalls = message.ball_radii.length > 0;
      $('ball-controls').hidden = !hasBalls;
      $('st-balls-group').hidden = !hasBalls;
      const select = $('broad-phase');
      if (select.options.length !== message.broad_phases.length) {
        select.replaceChildren(...message.broad_phases.map((name) => new Option(name, name)));
      }
      if (!view.fitted) fit();
      dirty = true;
    } else if (message.type === 'inspect') {
      if (message.agent !== selectedId) return;
      if (message.missing) {
        inspected = null;
        closeInspector();
        return;
      }
      if (scene && message.version !== scene.version) return;
      inspected = message;
      drawInspector();
      dirty = true;
    }
  }

  function onFrame(buffer) {
    if (buffer.byteLength < 4 * HEADER_WORDS) return;
    const words = new Uint32Array(buffer, 0, HEADER_WORDS);
    const floats = new Float32Array(buffer, 0, HEADER_WORDS);
    if (words[0] !== MAGIC || !scene || words[1] !== scene.version) return;
    const n = words[6];
    const links = words[9];
    const m = words[11];
    const boxes = words[14];
    const ballsAt = 4 * HEADER_WORDS + 8 * n;
    const linksAt = ballsAt + 8 * m;
    const boxesAt = linksAt + 8 * links;
    // Flag bit 1: the balls' angles follow the boxes (once some ball has turned).
    const anglesAt = boxesAt + 20 * boxes;
    const hasAngles = (words[5] & 2) !== 0 && buffer.byteLength >= anglesAt + 4 * m;
    frame = {
      version: words[1],
      step: words[2],
      time: floats[3],
      stepMs: floats[4],
      playing: (words[5] & 1) !== 0,
      n,
      overlaps: words[7],
      atGoal: words[8],
      deepestOverlap: floats[10],
      positions: new Float32Array(buffer, 4 * HEADER_WORDS, 2 * n),
      m,
      balls: new Float32Array(buffer, ballsAt, 2 * m),
      links: new Uint32Array(buffer, linksAt, 2 * links),
      candidatePairs: words[12],
      contacts: words[13],
      broadPhase: words[15] < scene.broad_phases.length ? scene.broad_phases[words[15]] : null,
      boxCount: boxes,
      boxFloats: new Float32Array(buffer, boxesAt, 5 * boxes),
      boxWords: new Uint32Array(buffer, boxesAt, 5 * boxes),
      angles: hasAngles ? new Float32Array(buffer, anglesAt, m) : null,
    };
    counters.framesReceived += 1;
    pushTrail();
    updateStatus();
    dirty = true;
  }

  function pushTrail() {
    if (!trails.data || trails.count !== frame.n) return;
    trails.data.set(frame.positions, trails.head * 2 * frame.n);
    trails.head = (trails.head + 1) % TRAIL_LENGTH;
    trails.length = Math.min(trails.length + 1, TRAIL_LENGTH);
  }

  function updateStatus() {
    $('st-frame').textContent = frame.step;
    $('st-time').textContent = frame.time.toFixed(2);
    $('st-agents').textContent = frame.n;
    $('st-goal').textContent = frame.atGoal;
    $('st-overlaps').textContent = frame.overlaps;
    $('st-deepest').textContent = (frame.deepestOverlap * 1000).toFixed(1);
    $('st-ms').textContent = frame.stepMs.toFixed(2);
    $('play').textContent = frame.playing ? 'Pause' : 'Play';
    if (frame.m > 0) {
      $('st-balls').textContent = frame.m;
      $('st-pairs').textContent = frame.candidatePairs;
      $('st-contacts').textContent = frame.contacts;
      const select = $('broad-phase');
      if (frame.broadPhase && select.value !== frame.broadPhase && document.activeElement !== select) {
        select.value = frame.broadPhase;
      }
    }
  }

  // ----- view transform (world y up, screen y down) -----
  function toScreen(x, y) {
    const w = sceneCanvas.clientWidth, h = sceneCanvas.clientHeight;
    return [(x - view.cx) * view.scale + w / 2, h / 2 - (y - view.cy) * view.scale];
  }

  function toWorld(sx, sy) {
    const w = sceneCanvas.clientWidth, h = sceneCanvas.clientHeight;
    return [(sx - w / 2) / view.scale + view.cx, view.cy - (sy - h / 2) / view.scale];
  }

  function fit() {
    if (!scene) return;
    const [x0, y0, x1, y1] = scene.bounds;
    const w = Math.max(sceneCanvas.clientWidth, 1), h = Math.max(sceneCanvas.clientHeight, 1);
    const r = Math.max(0, ...scene.radii.slice(0, 1), ...scene.ball_radii.slice(0, 1));
    view.cx = (x0 + x1) / 2;
    view.cy = (y0 + y1) / 2;
    view.scale = 0.92 * Math.min(w / Math.max(x1 - x0 + 2 * r, 1e-3), h / Math.max(y1 - y0 + 2 * r, 1e-3));
    view.fitted = true;
    dirty = true;
  }

  function resizeCanvas(canvas, ctx) {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(canvas.clientWidth * dpr), h = Math.round(canvas.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  // ----- scene drawing -----
  function drawScene() {
    const start = performance.now();
    resizeCanvas(sceneCanvas, sceneCtx);
    const ctx = sceneCtx;
    const w = sceneCanvas.clientWidth, h = sceneCanvas.clientHeight;
    ctx.fillStyle = '#fafafa';
    ctx.fillRect(0, 0, w, h);
    if (!scene) return;

    // Obstacles: polygons filled, two-vertex obstacles as walls.
    ctx.fillStyle = '#a0aec0';
    ctx.strokeStyle = '#4a5568';
    ctx.lineWidth = 1.5;
    for (const polygon of scene.obstacles) {
      ctx.beginPath();
      polygon.forEach(([x, y], k) => {
        const [sx, sy] = toScreen(x, y);
        if (k === 0) ctx.moveTo(sx, sy); else ctx.lineTo(sx, sy);
      });
      if (polygon.length > 2) {
        ctx.closePath();
        ctx.fill();
      }
      ctx.stroke();
    }
    if (scene.walls) {
      const [x0, y0, x1, y1] = scene.walls;
      const [sx0, sy0] = toScreen(x0, y1);
      const [sx1, sy1] = toScreen(x1, y0);
      ctx.strokeStyle = '#4a5568';
      ctx.lineWidth = 2;
      ctx.strokeRect(sx0, sy0, sx1 - sx0, sy1 - sy0);
    }
    if (!frame) return;
    const p = frame.positions, n = frame.n;
    drawBalls(ctx, w, h);

    if ($('trails').checked && trails.length > 1 && trails.count === n) {
      ctx.strokeStyle = 'rgba(49, 130, 206, 0.25)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      const oldest = (trails.head - trails.length + TRAIL_LENGTH) % TRAIL_LENGTH;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < trails.length; k++) {
          const slot = (oldest + k) % TRAIL_LENGTH;
          const [sx, sy] = toScreen(trails.data[slot * 2 * n + 2 * i], trails.data[slot * 2 * n + 2 * i + 1]);
          if (k === 0) ctx.moveTo(sx, sy); else ctx.lineTo(sx, sy);
        }
      }
      ctx.stroke();
    }

    if ($('links').checked && frame.links.length > 0) {
      ctx.strokeStyle = 'rgba(113, 128, 150, 0.45)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      const l = frame.links;
      for (let k = 0; k < l.length; k += 2) {
        const a = l[k], b = l[k + 1];
        const [ax, ay] = toScreen(p[2 * a], p[2 * a + 1]);
        const [bx, by] = toScreen(p[2 * b], p[2 * b + 1]);
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
      }
      ctx.stroke();
    }

    // Agents: discs in one path (one fill call). Below 3 px of radius a disc is drawn as a
    // square of the same area with fillRect: a few pixels either way, and Chromium's
    // software rasteriser fills 10,000 rectangles far faster than one path of 10,000
    // sub-paths (measured: browser/fps.mjs).
    const radii = scene.radii;
    ctx.fillStyle = '#3182ce';
    ctx.beginPath();
    const w2 = w / 2, h2 = h / 2, s = view.scale, cx = view.cx, cy = view.cy;
    for (let i = 0; i < n; i++) {
      const sx = (p[2 * i] - cx) * s + w2, sy = h2 - (p[2 * i + 1] - cy) * s;
      const r = radii[i] * s;
      if (sx < -r || sy < -r || sx > w + r || sy > h + r) continue;
      if (r < 3) {
        const half = Math.max(0.886 * r, 0.75); // sqrt(pi)/2: same area as the disc
        ctx.fillRect(sx - half, sy - half, 2 * half, 2 * half);
      } else {
        ctx.moveTo(sx + r, sy);
        ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      }
    }
    ctx.fill();

    drawSelection(ctx);
    counters.lastDrawMs = performance.now() - start;
    counters.drawMsTotal += counters.lastDrawMs;
  }

  // Balls, then (on request) the broad phase's boxes over them.
  const BOX_STYLES = [
    ['rgba(56, 161, 105, 0.55)', null], // grid cell
    ['rgba(128, 90, 213, 0.55)', null], // quadtree node
    ['rgba(221, 107, 32, 0.35)', 'rgba(221, 107, 32, 0.05)'], // sweep interval
    ['rgba(49, 151, 149, 0.5)', null], // tree node
  ];
  function drawBalls(ctx, w, h) {
    if (frame.m === 0) return;
    const b = frame.balls, radii = scene.ball_radii;
    const w2 = w / 2, h2 = h / 2, s = view.scale, cx = view.cx, cy = view.cy;
    ctx.fillStyle = '#d69e2e';
    ctx.beginPath();
    for (let i = 0; i < frame.m; i++) {
      const sx = (b[2 * i] - cx) * s + w2, sy = h2 - (b[2 * i + 1] - cy) * s;
      const r = radii[i] * s;
      if (sx < -r || sy < -r || sx > w + r || sy > h + r) continue;
      if (r < 3) {
        const half = Math.max(0.886 * r, 0.75);
        ctx.fillRect(sx - half, sy - half, 2 * half, 2 * half);
      } else {
        ctx.moveTo(sx + r, sy);
        ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      }
    }
    ctx.fill();
    // A turning ball gets a spoke from its centre to its rim at its angle, so that rolling and
    // spin show (balls drawn at least 3 px wide).
    const angles = frame.angles;
    if (angles) {
      ctx.strokeStyle = '#744210';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < frame.m; i++) {
        const sx = (b[2 * i] - cx) * s + w2, sy = h2 - (b[2 * i + 1] - cy) * s;
        const r = radii[i] * s;
        if (r < 3 || sx < -r || sy < -r || sx > w + r || sy > h + r) continue;
        ctx.moveTo(sx, sy);
        ctx.lineTo(sx + r * Math.cos(angles[i]), sy - r * Math.sin(angles[i]));
      }
      ctx.stroke();
    }
    if (!$('structure').checked || frame.boxCount === 0) return;
    ctx.lineWidth = 1;
    const f = frame.boxFloats, u = frame.boxWords;
    for (let k = 0; k < frame.boxCount; k++) {
      const [stroke, fill] = BOX_STYLES[u[5 * k + 4] & 0xff] || BOX_STYLES[0];
      const [sx0, sy0] = toScreen(f[5 * k], f[5 * k + 3]);
      const [sx1, sy1] = toScreen(f[5 * k + 2], f[5 * k + 1]);
      if (fill) {
        ctx.fillStyle = fill;
        ctx.fillRect(sx0, sy0, sx1 - sx0, sy1 - sy0);
      }
      ctx.strokeStyle = stroke;
      ctx.strokeRect(sx0, sy0, sx1 - sx0, sy1 - sy0);
    }
  }

  function agentIndex(id) {
    if (!scene) return -1;
    return scene.ids[id] === id ? id : scene.ids.indexOf(id);
  }

  function drawSelection(ctx) {
    if (selectedId === null || !frame) return;
    const i = agentIndex(selectedId);
    if (i < 0 || i >= frame.n) return;
    const p = frame.positions;
    const ring = (k, color, width) => {
      const [sx, sy] = toScreen(p[2 * k], p[2 * k + 1]);
      const r = Math.max(scene.radii[k] * view.scale, 3);
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(sx, sy, r + width, 0, 2 * Math.PI);
      ctx.stroke();
      return [sx, sy];
    };
    const [ax, ay] = toScreen(p[2 * i], p[2 * i + 1]);
    if (inspected && inspected.agent === selectedId) {
      // The neighbours ORCA took into account in this step, linked to the agent.
      ctx.strokeStyle = 'rgba(221, 107, 32, 0.8)';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const k of inspected.neighbor_indices) {
        if (k >= frame.n) continue;
        const [nx, ny] = toScreen(p[2 * k], p[2 * k + 1]);
        ctx.moveTo(ax, ay);
        ctx.lineTo(nx, ny);
      }
      ctx.stroke();
      for (const k of inspected.neighbor_indices) if (k < frame.n) ring(k, '#dd6b20', 2);
    }
    if (scene.goals[i]) {
      const [gx, gy] = toScreen(scene.goals[i][0], scene.goals[i][1]);
      ctx.strokeStyle = '#38a169';
      ctx.lineWidth = 1.5;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(gx, gy);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(gx - 5, gy - 5); ctx.lineTo(gx + 5, gy + 5);
      ctx.moveTo(gx - 5, gy + 5); ctx.lineTo(gx + 5, gy - 5);
      ctx.stroke();
    }
    ring(i, '#c53030', 3);
  }

  // ----- the inspector: the agent's velocity space -----
  function drawInspector() {
    const r = inspected;
    if (!r) return;
    $('inspector').hidden = false;
    $('insp-agent').textContent = `#${r.agent}`;
    $('insp-step').textContent = r.step === 0 ? '0 (no step yet: no half-planes)' : r.step;
    const lp = $('insp-lp');
    if (r.outcome.program === 'LP2') {
      lp.textContent = 'LP2 feasible: the nearest permitted velocity to the preferred one';
      lp.className = 'lp feasible';
    } else {
      lp.textContent = `LP3 fallback: half-planes conflict from #${r.outcome.first_infeasible}; least violation`;
      lp.className = 'lp fallback';
    }
    const v2 = (v) => `(${v[0].toFixed(3)}, ${v[1].toFixed(3)}) |${Math.hypot(v[0], v[1]).toFixed(3)}| m/s`;
    $('insp-neighbors').textContent = `${r.neighbors.length} of at most ${r.max_neighbors} within ${r.neighbor_dist} m`;
    $('insp-pref').textContent = v2(r.pref_velocity);
    $('insp-vel').textContent = v2(r.velocity);
    $('insp-max').textContent = `${r.max_speed} m/s`;
    $('insp-horizons').textContent = `agents ${r.time_horizon} s, obstacles ${r.time_horizon_obst} s`;

    resizeCanvas(velocityCanvas, velocityCtx);
    const ctx = velocityCtx;
    const W = velocityCanvas.clientWidth, H = velocityCanvas.clientHeight;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    const extent = 1.35 * Math.max(r.max_speed, Math.hypot(...r.pref_velocity), Math.hypot(...r.velocity), 0.1);
    const s = Math.min(W, H) / 2 / extent;
    const X = (vx) => W / 2 + vx * s, Y = (vy) => H / 2 - vy * s;

    // Axes through the origin (zero velocity).
    ctx.strokeStyle = '#e2e8f0';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, Y(0)); ctx.lineTo(W, Y(0));
    ctx.moveTo(X(0), 0); ctx.lineTo(X(0), H);
    ctx.stroke();

    // Half-planes: shade the forbidden (right) side, draw the boundary line.
    let drawnObstacle = 0, drawnAgent = 0;
    const L = 4 * extent;
    r.half_planes.forEach((h, k) => {
      const [px, py] = h.point, [dx, dy] = h.direction;
      const nx = dy, ny = -dx; // right-hand normal: the forbidden side
      const obstacle = h.kind === 'obstacle';
      const rgb = obstacle ? '221, 107, 32' : '49, 130, 206';
      ctx.fillStyle = `rgba(${rgb}, 0.07)`;
      ctx.beginPath();
      ctx.moveTo(X(px + dx * L), Y(py + dy * L));
      ctx.lineTo(X(px - dx * L), Y(py - dy * L));
      ctx.lineTo(X(px - dx * L + nx * L), Y(py - dy * L + ny * L));
      ctx.lineTo(X(px + dx * L + nx * L), Y(py + dy * L + ny * L));
      ctx.closePath();
      ctx.fill();
      const first = r.outcome.program === 'LP3' && k === r.outcome.first_infeasible;
      ctx.strokeStyle = `rgba(${rgb}, 0.9)`;
      ctx.lineWidth = first ? 3 : 1.5;
      ctx.beginPath();
      ctx.moveTo(X(px - dx * L), Y(py - dy * L));
      ctx.lineTo(X(px + dx * L), Y(py + dy * L));
      ctx.stroke();
      if (obstacle) drawnObstacle += 1; else drawnAgent += 1;
    });

    // Max-speed circle.
    ctx.strokeStyle = '#1a202c';
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.arc(X(0), Y(0), r.max_speed * s, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);

    // The chosen velocity first and thicker, the preferred one over it: they often share a
    // direction, and both must stay visible.
    arrow(ctx, X(0), Y(0), X(r.velocity[0]), Y(r.velocity[1]), '#805ad5', 4);
    ctx.fillStyle = '#805ad5';
    ctx.beginPath();
    ctx.arc(X(r.velocity[0]), Y(r.velocity[1]), 4.5, 0, 2 * Math.PI);
    ctx.fill();
    arrow(ctx, X(0), Y(0), X(r.pref_velocity[0]), Y(r.pref_velocity[1]), '#38a169', 1.5);
    ctx.fillStyle = '#4a5568';
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillText(`velocity space, ±${extent.toFixed(2)} m/s`, 6, H - 6);

    const rows = r.half_planes.map((h, k) => {
      const row = document.createElement('tr');
      row.className = h.kind;
      for (const text of [k, h.kind, `(${h.point[0].toFixed(3)}, ${h.point[1].toFixed(3)})`,
        `(${h.direction[0].toFixed(3)}, ${h.direction[1].toFixed(3)})`]) {
        const cell = document.createElement('td');
        cell.textContent = String(text);
        row.appendChild(cell);
      }
      return row;
    });
    document.querySelector('#insp-table tbody').replaceChildren(...rows);

    const drawn = drawnObstacle + drawnAgent;
    const count = $('insp-half-planes');
    count.textContent = String(drawn);
    count.dataset.drawn = String(drawn);
    $('insp-agent-planes').textContent = String(drawnAgent);
    $('insp-obstacle-planes').textContent = String(drawnObstacle);
    Object.assign(inspectorState, {
      agent: r.agent, step: r.step, version: r.version,
      halfPlanes: r.half_planes.length, obstacleHalfPlanes: r.obstacle_half_planes, agentHalfPlanes: r.agent_half_planes,
      drawnHalfPlanes: drawn, drawnObstacle, drawnAgent, outcome: r.outcome.program, neighbors: r.neighbors.length,
    });
  }

  function arrow(ctx, x0, y0, x1, y1, color, width) {
    const len = Math.hypot(x1 - x0, y1 - y0);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    if (len < 1) return;
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len, head = Math.min(10, len / 2);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
    ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
    ctx.closePath();
    ctx.fill();
  }

  function select(id) {
    selectedId = id;
    inspected = null;
    Object.assign(inspectorState, { agent: id, step: null, drawnHalfPlanes: 0 });
    send({ cmd: 'inspect', agent: id });
    dirty = true;
  }

  function closeInspector() {
    selectedId = null;
    inspected = null;
    inspectorState.agent = null;
    $('inspector').hidden = true;
    send({ cmd: 'uninspect' });
    dirty = true;
  }

  // ----- input -----
  let drag = null;
  sceneCanvas.addEventListener('mousedown', (e) => {
    drag = { x: e.clientX, y: e.clientY, moved: false };
  });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) {
      view.cx -= dx / view.scale;
      view.cy += dy / view.scale;
      drag.x = e.clientX;
      drag.y = e.clientY;
      dirty = true;
    }
  });
  window.addEventListener('mouseup', (e) => {
    const wasClick = drag && !drag.moved && e.target === sceneCanvas;
    drag = null;
    if (!wasClick || !frame) return;
    const i = pick(e.offsetX, e.offsetY);
    if (i >= 0) select(scene.ids[i]);
  });
  sceneCanvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [wx, wy] = toWorld(e.offsetX, e.offsetY);
    view.scale *= Math.pow(1.0015, -e.deltaY);
    const [wx2, wy2] = toWorld(e.offsetX, e.offsetY);
    view.cx += wx - wx2; // keep the point under the cursor fixed
    view.cy += wy - wy2;
    dirty = true;
  }, { passive: false });

  // The agent under (sx, sy), or the nearest within 6 px; -1 if none.
  function pick(sx, sy) {
    const [wx, wy] = toWorld(sx, sy);
    const p = frame.positions;
    let best = -1, bestD = Infinity;
    for (let i = 0; i < frame.n; i++) {
      const d = Math.hypot(p[2 * i] - wx, p[2 * i + 1] - wy);
      const reach = Math.max(scene.radii[i], 6 / view.scale);
      if (d <= reach && d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  $('play').addEventListener('click', () => send({ cmd: frame && frame.playing ? 'pause' : 'play' }));
  $('step').addEventListener('click', () => send({ cmd: 'step' }));
  $('reset').addEventListener('click', () => send({ cmd: 'reset' }));
  $('fit').addEventListener('click', fit);
  $('insp-close').addEventListener('click', closeInspector);
  const sendSpeed = () => {
    const max = $('speed-max').checked;
    const value = Number($('speed').value);
    $('speed-label').textContent = max ? 'as fast as possible' : `${value} steps/s`;
    send({ cmd: 'speed', steps_per_second: max ? 0 : value });
  };
  $('speed').addEventListener('input', sendSpeed);
  $('speed-max').addEventListener('change', sendSpeed);
  $('links').addEventListener('change', () => { send({ cmd: 'links', on: $('links').checked }); dirty = true; });
  $('trails').addEventListener('change', () => { dirty = true; });
  $('structure').addEventListener('change', () => { send({ cmd: 'structure', on: $('structure').checked }); dirty = true; });
  $('broad-phase').addEventListener('change', () => send({ cmd: 'broad_phase', name: $('broad-phase').value }));
  window.addEventListener('resize', () => { dirty = true; });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    if (e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') return;
    if (e.key === ' ') { e.preventDefault(); $('play').click(); }
    else if (e.key === 's') $('step').click();
    else if (e.key === 'r') $('reset').click();
    else if (e.key === 'f') fit();
    else if (e.key === 'Escape') closeInspector();
  });

  // ----- render loop -----
  let second = performance.now(), drawnAtSecond = 0, receivedAtSecond = 0;
  function tick(now) {
    if (dirty || continuousRedraw) {
      dirty = false;
      drawScene();
      counters.framesDrawn += 1;
    }
    if (now - second >= 1000) {
      counters.fps = (counters.framesDrawn - drawnAtSecond) * 1000 / (now - second);
      counters.dataFps = (counters.framesReceived - receivedAtSecond) * 1000 / (now - second);
      drawnAtSecond = counters.framesDrawn;
      receivedAtSecond = counters.framesReceived;
      second = now;
      $('st-fps').textContent = counters.fps.toFixed(0);
      $('st-data-fps').textContent = counters.dataFps.toFixed(0);
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
  connect();

  // For tests and tools: read-only views of what the page holds and shows.
  window.swerve = {
    get state() {
      return {
        connected,
        version: scene ? scene.version : null,
        step: frame ? frame.step : null,
        time: frame ? frame.time : null,
        playing: frame ? frame.playing : null,
        agents: frame ? frame.n : 0,
        overlaps: frame ? frame.overlaps : null,
        atGoal: frame ? frame.atGoal : null,
        deepestOverlap: frame ? frame.deepestOverlap : null,
        stepMs: frame ? frame.stepMs : null,
        links: frame ? frame.links.length / 2 : 0,
        balls: frame ? frame.m : 0,
        candidatePairs: frame ? frame.candidatePairs : null,
        contacts: frame ? frame.contacts : null,
        broadPhase: frame ? frame.broadPhase : null,
        boxes: frame ? frame.boxCount : 0,
        // Balls whose angle is not 0 (0 when the frame carries no angles).
        turnedBalls: frame && frame.angles ? frame.angles.reduce((k, a) => k + (a !== 0 ? 1 : 0), 0) : 0,
        ...counters,
      };
    },
    get inspector() { return { ...inspectorState }; },
    // Where agent `index` is drawn, in page coordinates (CSS pixels).
    agentScreenPosition(index) {
      if (!frame || index >= frame.n) return null;
      const rect = sceneCanvas.getBoundingClientRect();
      const [sx, sy] = toScreen(frame.positions[2 * index], frame.positions[2 * index + 1]);
      return { x: rect.left + sx, y: rect.top + sy, radius: scene.radii[index] * view.scale };
    },
    // The screen box around all agents (CSS pixels, page coordinates).
    agentBox() {
      if (!frame || frame.n === 0) return null;
      const rect = sceneCanvas.getBoundingClientRect();
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i < frame.n; i++) {
        const [sx, sy] = toScreen(frame.positions[2 * i], frame.positions[2 * i + 1]);
        x0 = Math.min(x0, sx); y0 = Math.min(y0, sy); x1 = Math.max(x1, sx); y1 = Math.max(y1, sy);
      }
      return { x: rect.left + x0, y: rect.top + y0, width: x1 - x0, height: y1 - y0 };
    },
    fit,
    // Redraw on every animation frame even without new data (to measure drawing alone).
    setContinuousRedraw(on) { continuousRedraw = Boolean(on); },
  };
})();
