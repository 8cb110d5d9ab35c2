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
    drawnHalfPlanes: 0, drawnObstacle: 0, drawnAgent: 0, drawnAcceleration: 0, accelerationHalfPlanes: 0,
    outcome: null, neighbors: 0,
    // Avoidance layers (beyond RVO2): the library's values, whether the page shows them, and
    // how many ignored agents the scene drew faded.
    avoidanceLayers: null, avoidanceMask: null, layersShown: false, ignored: 0, avoidedAlone: 0, drawnIgnored: 0,
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
      const dim = message.dimensions === 3 ? 3 : 2;
      trails.data = new Float32Array(TRAIL_LENGTH * dim * message.ids.length);
      trails.head = 0;
      trails.length = 0;
      trails.count = message.ids.length;
      trails.dim = dim;
      agentColours = null;
      sphereSprites = null;
      // A planar scenario's movers travel as the last balls; only real balls have a broad phase.
      const hasBalls = message.ball_radii.length - (message.movers || 0) > 0;
      // No live broad-phase switch or structure for 3-D spheres: the status bar names it.
      $('ball-controls').hidden = !hasBalls || dim === 3;
      $('st-balls-label').textContent = dim === 3 ? 'spheres' : 'balls';
      $('st-balls-group').hidden = !hasBalls;
      const select = $('broad-phase');
      if (select.options.length !== message.broad_phases.length) {
        select.replaceChildren(...message.broad_phases.map((name) => new Option(name, name)));
      }
      if (dim === 3 ? !camera.fitted : !view.fitted) fit();
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
    // Flag bit 2: a 3-D frame, three coordinates per body (frame.rs, "3-D frames").
    const dim = (words[5] & 4) !== 0 ? 3 : 2;
    if ((dim === 3) !== is3d()) return;
    const n = words[6];
    const links = words[9];
    const m = words[11];
    const boxes = words[14];
    const ballsAt = 4 * HEADER_WORDS + 4 * dim * n;
    const linksAt = ballsAt + 4 * dim * m;
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
      dim,
      positions: new Float32Array(buffer, 4 * HEADER_WORDS, dim * n),
      m,
      balls: new Float32Array(buffer, ballsAt, dim * m),
      links: new Uint32Array(buffer, linksAt, 2 * links),
      candidatePairs: words[12],
      contacts: words[13],
      broadPhase: words[15] < scene.broad_phases.length ? scene.broad_phases[words[15]] : null,
      dim3: dim === 3,
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
    if (!trails.data || trails.count !== frame.n || trails.dim !== frame.dim) return;
    trails.data.set(frame.positions, trails.head * frame.dim * frame.n);
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
      $('st-balls').textContent = frame.m - (scene.movers || 0);
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
    if (is3d()) {
      fit3d();
      return;
    }
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
    if (is3d()) {
      drawScene3d(ctx, w, h);
      counters.lastDrawMs = performance.now() - start;
      counters.drawMsTotal += counters.lastDrawMs;
      return;
    }

    // Obstacles: solid polygons (counter-clockwise, RVO2's winding) filled; a clockwise one is
    // a boundary round the agents' space, outlined; two-vertex obstacles are walls.
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
        const twiceArea = polygon.reduce((sum, [x, y], k) => {
          const [nx, ny] = polygon[(k + 1) % polygon.length];
          return sum + x * ny - nx * y;
        }, 0);
        if (twiceArea > 0) ctx.fill();
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
    // The balls in amber, then a scenario's movers (discs the agents avoid) in grey.
    const firstMover = frame.m - Math.min(scene.movers || 0, frame.m);
    for (const [from, to, colour] of [[0, firstMover, '#d69e2e'], [firstMover, frame.m, '#8a8a8a']]) {
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (let i = from; i < to; i++) {
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
    }
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
      // Agents it ignores (avoidance layers): faded under a dashed grey outline, so that they
      // read as absent from its decision, unlike the ringed neighbours it avoids.
      let drawnIgnored = 0;
      for (const k of inspected.ignored_indices || []) {
        if (k >= frame.n) continue;
        const [sx, sy] = toScreen(p[2 * k], p[2 * k + 1]);
        const r = Math.max(scene.radii[k] * view.scale, 3);
        ctx.fillStyle = 'rgba(250, 250, 250, 0.7)';
        ctx.beginPath();
        ctx.arc(sx, sy, r, 0, 2 * Math.PI);
        ctx.fill();
        ctx.strokeStyle = '#718096';
        ctx.lineWidth = 1;
        ctx.setLineDash([3, 3]);
        ctx.stroke();
        ctx.setLineDash([]);
        drawnIgnored += 1;
      }
      inspectorState.drawnIgnored = drawnIgnored;
    }
    const route = inspected && inspected.agent === selectedId && inspected.route ? inspected.route : [];
    if (route.length >= 2) {
      // Roadmap navigation: the way the agent means to walk, waypoint by waypoint (why its
      // preferred velocity points where it does), instead of the straight line to its goal.
      ctx.strokeStyle = '#38a169';
      ctx.fillStyle = '#38a169';
      ctx.lineWidth = 2;
      ctx.beginPath();
      route.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(...toScreen(x, y)) : ctx.lineTo(...toScreen(x, y))));
      ctx.stroke();
      for (const [x, y] of route.slice(1, -1)) {
        const [sx, sy] = toScreen(x, y);
        ctx.beginPath();
        ctx.arc(sx, sy, 3, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    if (scene.goals[i]) {
      const [gx, gy] = toScreen(scene.goals[i][0], scene.goals[i][1]);
      ctx.strokeStyle = '#38a169';
      ctx.lineWidth = 1.5;
      ctx.setLineDash([4, 4]);
      if (route.length < 2) {
        ctx.beginPath();
        ctx.moveTo(ax, ay);
        ctx.lineTo(gx, gy);
        ctx.stroke();
      }
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
    if (r.dimensions === 3) {
      drawInspector3d(r);
      return;
    }
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
    const waypoints = r.route && r.route.length > 2 ? r.route.length - 2 : 0;
    $('insp-pref').textContent = v2(r.pref_velocity) +
      (waypoints > 0 ? ` — roadmap: ${waypoints} waypoint${waypoints > 1 ? 's' : ''} to the goal (green path)` : '');
    $('insp-vel').textContent = v2(r.velocity);
    $('insp-max').textContent = `${r.max_speed} m/s`;
    $('insp-horizons').textContent = `agents ${r.time_horizon} s, obstacles ${r.time_horizon_obst} s`;
    // Avoidance layers, only where they matter for this agent (the server says when).
    const mask32 = (m) => `0b${m.toString(2)} (${m})`;
    $('insp-layers-label').hidden = !r.layers_in_use;
    $('insp-layers-row').hidden = !r.layers_in_use;
    $('insp-layers').textContent = mask32(r.avoidance_layers);
    $('insp-mask').textContent = mask32(r.avoidance_mask);
    $('insp-ignored').textContent = String(r.ignored.length);
    $('insp-alone').textContent = String(r.avoided_alone.length);

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
    let drawnObstacle = 0, drawnAgent = 0, drawnAcceleration = 0;
    const L = 4 * extent;
    r.half_planes.forEach((h, k) => {
      const [px, py] = h.point, [dx, dy] = h.direction;
      const nx = dy, ny = -dx; // right-hand normal: the forbidden side
      // Obstacles orange, the agent's own acceleration limit teal, other agents blue.
      const rgb = { obstacle: '221, 107, 32', acceleration: '49, 151, 149' }[h.kind] || '49, 130, 206';
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
      if (h.kind === 'obstacle') drawnObstacle += 1;
      else if (h.kind === 'acceleration') drawnAcceleration += 1;
      else drawnAgent += 1;
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

    const drawn = drawnObstacle + drawnAgent + drawnAcceleration;
    const count = $('insp-half-planes');
    count.textContent = String(drawn);
    count.dataset.drawn = String(drawn);
    $('insp-agent-planes').textContent = String(drawnAgent);
    $('insp-obstacle-planes').textContent = String(drawnObstacle);
    $('insp-acceleration-planes').textContent = String(drawnAcceleration);
    $('insp-acceleration-key').hidden = drawnAcceleration === 0;
    Object.assign(inspectorState, {
      agent: r.agent, step: r.step, version: r.version,
      halfPlanes: r.half_planes.length, obstacleHalfPlanes: r.obstacle_half_planes, agentHalfPlanes: r.agent_half_planes,
      drawnHalfPlanes: drawn, drawnObstacle, drawnAgent, drawnAcceleration,
      accelerationHalfPlanes: r.acceleration_half_planes, outcome: r.outcome.program, neighbors: r.neighbors.length,
      avoidanceLayers: r.avoidance_layers, avoidanceMask: r.avoidance_mask, layersShown: r.layers_in_use,
      ignored: r.ignored.length, avoidedAlone: r.avoided_alone.length,
      route: r.route ? r.route.map((p) => p.slice()) : [],
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
    Object.assign(inspectorState, { agent: id, step: null, drawnHalfPlanes: 0, drawnIgnored: 0, layersShown: false });
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

  // ----- 3-D: orbit camera, depth-sorted sprites, triangles (with a depth buffer), the box -----
  // World z is up. The camera circles `target` at `distance`, `yaw` around z and `pitch`
  // above the xy plane; perspective with a vertical field of view of FOV.
  const FOV = (45 * Math.PI) / 180;
  const NEAR = 1e-3; // camera-space depth below which nothing is drawn (relative to distance)
  const camera = { yaw: -Math.PI / 3, pitch: 0.45, distance: 100, target: [0, 0, 0], fitted: false };
  // The basis of the current view, refreshed by cameraBasis(): eye, right, up, forward, focal.
  const basis = { ex: 0, ey: 0, ez: 0, rx: 0, ry: 0, rz: 0, ux: 0, uy: 0, uz: 0, fx: 0, fy: 0, fz: 0, focal: 1, near: 0 };

  function is3d() {
    return Boolean(scene && scene.dimensions === 3);
  }

  function cameraBasis(w, h) {
    const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
    const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
    // Forward: from the eye to the target.
    const fx = -cp * cy, fy = -cp * sy, fz = -sp;
    // Right = forward × z, normalised (|forward × z| = cos(pitch) > 0 within the clamp).
    const rx = -sy, ry = cy, rz = 0;
    // Up = right × forward.
    const ux = ry * fz - rz * fy, uy = rz * fx - rx * fz, uz = rx * fy - ry * fx;
    const [tx, ty, tz] = camera.target;
    Object.assign(basis, {
      ex: tx - fx * camera.distance, ey: ty - fy * camera.distance, ez: tz - fz * camera.distance,
      rx, ry, rz, ux, uy, uz, fx, fy, fz,
      focal: h / 2 / Math.tan(FOV / 2),
      near: NEAR * camera.distance,
      w2: w / 2, h2: h / 2,
    });
  }

  // Camera-space (x right, y up, depth) of a world point.
  function toCamera(x, y, z) {
    const b = basis;
    const dx = x - b.ex, dy = y - b.ey, dz = z - b.ez;
    return [dx * b.rx + dy * b.ry + dz * b.rz, dx * b.ux + dy * b.uy + dz * b.uz, dx * b.fx + dy * b.fy + dz * b.fz];
  }

  // Screen point (CSS pixels) and depth of a world point; depth ≤ near means behind the eye.
  function project(x, y, z) {
    const [cx, cy, d] = toCamera(x, y, z);
    const k = basis.focal / Math.max(d, basis.near);
    return [basis.w2 + cx * k, basis.h2 - cy * k, d];
  }

  function fit3d() {
    if (!scene) return;
    const [x0, y0, z0, x1, y1, z1] = scene.bounds3;
    camera.target = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2];
    const radius = Math.max(Math.hypot(x1 - x0, y1 - y0, z1 - z0) / 2, 1e-3);
    const w = Math.max(sceneCanvas.clientWidth, 1), h = Math.max(sceneCanvas.clientHeight, 1);
    // The bounding sphere fits the narrower of the two fields of view.
    const half = Math.min(FOV / 2, Math.atan(Math.tan(FOV / 2) * w / h));
    camera.distance = 1.02 * radius / Math.sin(half);
    camera.fitted = true;
    dirty = true;
  }

  // Shaded sphere sprites, one per colour, drawn once and scaled with drawImage: one bitmap
  // copy per sphere is much cheaper than a gradient fill per sphere.
  const SPRITE_SIZE = 64;
  const sprites = new Map();
  function sprite(rgb) {
    const key = rgb.join(',');
    let canvas = sprites.get(key);
    if (canvas) return canvas;
    canvas = document.createElement('canvas');
    canvas.width = canvas.height = SPRITE_SIZE;
    const c = canvas.getContext('2d');
    const r = SPRITE_SIZE / 2;
    const mix = (t, to) => rgb.map((v) => Math.round(v + (to - v) * t)).join(', ');
    const g = c.createRadialGradient(r * 0.65, r * 0.6, r * 0.05, r, r, r);
    g.addColorStop(0, `rgb(${mix(0.7, 255)})`);
    g.addColorStop(0.35, `rgb(${mix(0.1, 255)})`);
    g.addColorStop(0.85, `rgb(${mix(0.35, 0)})`);
    g.addColorStop(1, `rgb(${mix(0.6, 0)})`);
    c.fillStyle = g;
    c.beginPath();
    c.arc(r, r, r - 0.5, 0, 2 * Math.PI);
    c.fill();
    sprites.set(key, canvas);
    return canvas;
  }

  const SPHERE_RGB = [49, 130, 206];
  const HEAVY_RGB = [221, 107, 32];
  // Agents of a 3-D crowd: coloured by the direction they started in (hue by azimuth), so
  // that the crossing shows who came from where. Set from the first frame of a scene version.
  const AGENT_HUES = 12;
  let agentColours = null; // Uint8Array of hue buckets, per agent
  let agentSprites = [];
  let sphereSprites = null; // per sphere: index into [normal, heavy]
  function hueRgb(k) {
    const h = (k / AGENT_HUES) * 6, x = 1 - Math.abs((h % 2) - 1);
    const [r, g, b] = h < 1 ? [1, x, 0] : h < 2 ? [x, 1, 0] : h < 3 ? [0, 1, x] : h < 4 ? [0, x, 1] : h < 5 ? [x, 0, 1] : [1, 0, x];
    // Muted: 60 % of the pure hue over a mid grey, so the shading reads.
    return [r, g, b].map((v) => Math.round(60 + 150 * v));
  }
  function prepareColours3d() {
    if (!agentSprites.length) agentSprites = Array.from({ length: AGENT_HUES }, (_, k) => sprite(hueRgb(k)));
    if (!agentColours || agentColours.length !== frame.n) {
      agentColours = new Uint8Array(frame.n);
      const [x0, y0, , x1, y1] = scene.bounds3;
      const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, p = frame.positions;
      for (let i = 0; i < frame.n; i++) {
        const a = Math.atan2(p[3 * i + 1] - cy, p[3 * i] - cx);
        agentColours[i] = Math.min(AGENT_HUES - 1, Math.floor(((a + Math.PI) / (2 * Math.PI)) * AGENT_HUES));
      }
    }
    if (!sphereSprites || sphereSprites.length !== frame.m) {
      // The odd heavy sphere (over twice the median radius) stands out in orange.
      const radii = scene.ball_radii.slice().sort((a, b) => a - b);
      const median = radii.length ? radii[radii.length >> 1] : 0;
      sphereSprites = new Uint8Array(frame.m);
      for (let i = 0; i < frame.m; i++) sphereSprites[i] = scene.ball_radii[i] > 2 * median ? 1 : 0;
    }
  }

  // Scratch for the depth sort, grown as needed: per body its screen x, y, radius and depth.
  let proj = new Float32Array(0);
  let sortKeys = new Float64Array(0);
  const INDEX_SPAN = 2 ** 24; // bodies per frame at most
  // What the last 3-D frame drew, and how: `rasterPath` the pixel copy of many small spheres
  // (no triangles), `depthBuffered` the depth-tested pixels of spheres and triangles.
  const depthCounters = { drawnSpheres: 0, drawnTriangles: 0, rasterPath: false, depthBuffered: false };

  function drawScene3d(ctx, w, h) {
    cameraBasis(w, h);
    if (!camera.fitted) fit3d();
    cameraBasis(w, h);
    const triangles = scene.triangles || [];
    // With triangles the depth buffer draws the box's edges too, depth-tested like the rest.
    const depthBuffered = Boolean(frame) && triangles.length > 0;
    if (!depthBuffered) drawBox3d(ctx, false);
    if (!frame) {
      drawBox3d(ctx, true);
      return;
    }
    prepareColours3d();
    const n = frame.n, m = frame.m, bodies = n + m;
    if (proj.length < 4 * bodies) proj = new Float32Array(4 * bodies);
    if (sortKeys.length < bodies) sortKeys = new Float64Array(bodies);
    const b = basis, near = b.near, focal = b.focal, w2 = b.w2, h2 = b.h2;
    let farthest = near;
    let largest = 0;
    let count = 0;
    const put = (arr, radii, offset) => {
      for (let i = 0; i < arr.length / 3; i++) {
        const dx = arr[3 * i] - b.ex, dy = arr[3 * i + 1] - b.ey, dz = arr[3 * i + 2] - b.ez;
        const d = dx * b.fx + dy * b.fy + dz * b.fz;
        const k = offset + i;
        proj[4 * k + 3] = d;
        if (d <= near) continue;
        const s = focal / d;
        const sx = w2 + (dx * b.rx + dy * b.ry + dz * b.rz) * s;
        const sy = h2 - (dx * b.ux + dy * b.uy + dz * b.uz) * s;
        const r = radii[i] * s;
        proj[4 * k] = sx; proj[4 * k + 1] = sy; proj[4 * k + 2] = r;
        if (sx < -r || sy < -r || sx > w + r || sy > h + r) continue;
        if (d > farthest) farthest = d;
        if (r > largest) largest = r;
        sortKeys[count++] = k; // depth added below, once the farthest depth is known
      }
    };
    put(frame.positions, scene.radii, 0);
    put(frame.balls, scene.ball_radii, n);
    // Far to near: the key is (quantised nearness) × 2^24 + item, sorted as plain numbers
    // (a typed-array sort without a comparator, several times faster than one with).
    const scale = (2 ** 20 - 1) / farthest;
    for (let k = 0; k < count; k++) {
      const item = sortKeys[k];
      // proj holds depths rounded to f32, which may pass `farthest` by an ulp: clamp at 0.
      sortKeys[k] = Math.max(0, Math.floor((farthest - proj[4 * item + 3]) * scale)) * INDEX_SPAN + item;
    }
    const keys = sortKeys.subarray(0, count).sort();
    const heavy = [sprite(SPHERE_RGB), sprite(HEAVY_RGB)];
    let drawnSpheres = 0, drawnTriangles = 0;
    const dpr = window.devicePixelRatio || 1;
    let rastered = false;
    if (depthBuffered) {
      // Triangles: one depth per item cannot order a big triangle against a sphere that
      // straddles it in depth (or passes through it), so spheres and triangles are drawn
      // into the canvas's pixels with a depth buffer instead of back to front.
      [drawnSpheres, drawnTriangles] = depthComposite(ctx, keys, n, dpr, triangles);
      rastered = true;
    } else if (count > RASTER_MIN_SPHERES && 2 * largest * dpr <= RASTER_MAX_DIAMETER) {
      // Many small spheres and nothing else to interleave: copy sprite pixels straight into
      // the canvas's pixels (measured: one drawImage costs ~5 µs in Chromium's software
      // rasteriser, 50 ms for 10,000 spheres; this costs a fraction of that).
      drawnSpheres = rasterSpheres(ctx, keys, n, dpr);
      rastered = drawnSpheres > 0;
    }
    for (let k = 0; k < count && !rastered; k++) {
      const item = keys[k] % INDEX_SPAN;
      const sx = proj[4 * item], sy = proj[4 * item + 1], r = proj[4 * item + 2];
      if (r < 0.75) {
        // Sub-pixel: a dot of the sphere's colour is as good and much cheaper.
        ctx.fillStyle = item < n ? 'rgb(90, 100, 120)' : 'rgb(49, 130, 206)';
        ctx.fillRect(sx - 0.75, sy - 0.75, 1.5, 1.5);
      } else {
        const image = item < n ? agentSprites[agentColours[item]] : heavy[sphereSprites[item - n]];
        ctx.drawImage(image, sx - r, sy - r, 2 * r, 2 * r);
      }
      drawnSpheres += 1;
    }
    depthCounters.rasterPath = rastered && !depthBuffered;
    depthCounters.depthBuffered = depthBuffered;
    depthCounters.drawnSpheres = drawnSpheres;
    depthCounters.drawnTriangles = drawnTriangles;
    if (!depthBuffered) drawBox3d(ctx, true);
    drawLinks3d(ctx);
    drawTrails3d(ctx);
    drawSelection3d(ctx);
    drawAxes3d(ctx, h);
  }

  // The pixel path for many small spheres: each sphere's sprite, pre-rendered at its whole
  // diameter in device pixels, is copied into the canvas's ImageData back to front; its
  // antialiased rim is blended.
  const RASTER_MIN_SPHERES = 2000;
  const RASTER_MAX_DIAMETER = 64;
  const rasterCache = new Map(); // colour index → [diameter → { d, pixels }]
  // Pixels held by rasterCache (and by depthTables) beyond which sizes not used in the
  // current frame are dropped: the depth-buffered path (below) takes spheres of any size, and
  // zooming through many sizes would otherwise keep every one of them. Sizes in use stay, so
  // a close-up whose sizes need more is not rebuilt every frame.
  const RASTER_CACHE_PIXELS = 1 << 23;
  let rasterCachePixels = 0;
  let spriteFrame = 0; // counts frames drawn by depthComposite and rasterSpheres
  function rasterSprite(colour, d) {
    let sizes = rasterCache.get(colour);
    if (sizes && sizes[d]) {
      sizes[d].used = spriteFrame;
      return sizes[d];
    }
    if (rasterCachePixels + d * d > RASTER_CACHE_PIXELS) {
      for (const list of rasterCache.values()) {
        list.forEach((entry, size) => {
          if (entry && entry.used !== spriteFrame) {
            delete list[size];
            rasterCachePixels -= size * size;
          }
        });
      }
    }
    if (!sizes) rasterCache.set(colour, (sizes = []));
    rasterCachePixels += d * d;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = d;
    const c = canvas.getContext('2d');
    const rgb = colour < AGENT_HUES ? hueRgb(colour) : colour === AGENT_HUES ? SPHERE_RGB : HEAVY_RGB;
    c.drawImage(sprite(rgb), 0, 0, d, d);
    const pixels = new Uint32Array(c.getImageData(0, 0, d, d).data.buffer);
    // The same pixels as signed integers (the depth-buffered path: V8 keeps int32 values
    // unboxed, while a Uint32Array's opaque pixels, over 2^31, become doubles), and per row
    // the first and last + 1 column that is not wholly transparent.
    const spans = new Int16Array(2 * d);
    for (let j = 0; j < d; j++) {
      let a = 0, b = 0;
      for (let i = 0; i < d; i++) {
        if (pixels[j * d + i] >>> 24 === 0) continue;
        if (b === 0) a = i;
        b = i + 1;
      }
      spans[2 * j] = a;
      spans[2 * j + 1] = b;
    }
    sizes[d] = { d, pixels, ints: new Int32Array(pixels.buffer), spans, used: spriteFrame };
    return sizes[d];
  }

  function rasterSpheres(ctx, keys, n, dpr) {
    spriteFrame += 1;
    const W = sceneCanvas.width, H = sceneCanvas.height;
    const image = ctx.getImageData(0, 0, W, H);
    const out = new Uint32Array(image.data.buffer);
    let drawn = 0;
    for (let k = 0; k < keys.length; k++) {
      const item = keys[k] % INDEX_SPAN;
      const colour = item < n ? agentColours[item] : AGENT_HUES + sphereSprites[item - n];
      const d = Math.max(2, Math.round(2 * proj[4 * item + 2] * dpr));
      const spr = rasterSprite(colour, d), px = spr.pixels;
      const x0 = Math.round(proj[4 * item] * dpr - d / 2), y0 = Math.round(proj[4 * item + 1] * dpr - d / 2);
      const i0 = Math.max(0, -x0), i1 = Math.min(d, W - x0), j0 = Math.max(0, -y0), j1 = Math.min(d, H - y0);
      for (let j = j0; j < j1; j++) {
        const row = (y0 + j) * W + x0, src = j * d;
        for (let i = i0; i < i1; i++) {
          const p = px[src + i], a = p >>> 24;
          if (a === 255) out[row + i] = p;
          else if (a !== 0) {
            // Little-endian RGBA: 0xAABBGGRR; straight (not premultiplied) alpha.
            const q = out[row + i], b = 255 - a;
            const r = ((p & 255) * a + (q & 255) * b) / 255;
            const g = (((p >>> 8) & 255) * a + ((q >>> 8) & 255) * b) / 255;
            const bl = (((p >>> 16) & 255) * a + ((q >>> 16) & 255) * b) / 255;
            out[row + i] = 0xff000000 | (bl << 16) | (g << 8) | r;
          }
        }
      }
      drawn += 1;
    }
    ctx.putImageData(image, 0, 0);
    return drawn;
  }

  // ----- 3-D with triangles: a depth buffer -----
  // Spheres are opaque: each sprite pixel is written with the depth of the sphere's surface
  // there, where that is nearer than what the pixel holds. Triangles are translucent, all of
  // one colour and alpha: each pixel of a face is blended where the face is nearer than the
  // pixel's depth, and writes no depth. Blending one colour c at alpha a k times gives
  // c + (1 − a)^k (background − c) in any order, so the faces need no sort. Between the two
  // come the box's edges and the triangles' (nearly opaque lines), depth-tested with a small
  // bias towards the line, so that an edge on a surface shows, and writing depth where they
  // mostly cover a pixel, so that a face in front of an edge tints it and one behind does not.
  // The buffer holds view depth (metres along the camera's forward axis; Infinity where
  // nothing is drawn). Across a triangle 1 / depth is affine in screen space, so a face's
  // depth is exact (perspective-correct): one addition per pixel, and `w · depth > 1` tests
  // it without a division.
  const BACKGROUND = 0xfffafafa; // #fafafa, as drawScene fills the canvas (0xAABBGGRR)
  const FACE_RGB = [236, 178, 46];
  const FACE_ALPHA = 0.28; // as the canvas fill 'rgba(236, 178, 46, 0.28)' drew it
  const EDGE_RGB = [183, 121, 31];
  const EDGE_ALPHA = 0.9;
  const EDGE_WIDTH = 1.2; // CSS pixels
  const BOX_RGB = [74, 85, 104];
  const BOX_ALPHA = 0.75;
  const BOX_WIDTH = 1.5; // CSS pixels
  const LINE_BIAS = 1e-3; // relative depth by which a line wins against a surface
  let pixelImage = null; // ImageData the size of the canvas, reused
  let depthBuffer = new Float32Array(0);
  // Per sprite diameter d (device pixels): sqrt(1 − ρ²) at each pixel's centre, ρ its distance
  // from the sprite's centre over d / 2; a sphere's surface there is radius × that nearer
  // than its centre (exact for a sphere seen head-on; in perspective the error is about
  // radius² / distance, under a pixel's worth at the sizes drawn).
  const depthTables = new Map();
  let depthTablePixels = 0;
  function depthTable(d) {
    const entry = depthTables.get(d);
    if (entry) {
      entry.used = spriteFrame;
      return entry.table;
    }
    if (depthTablePixels + d * d > RASTER_CACHE_PIXELS) {
      for (const [size, old] of depthTables) {
        if (old.used === spriteFrame) continue;
        depthTables.delete(size);
        depthTablePixels -= size * size;
      }
    }
    const table = new Float32Array(d * d);
    const c = d / 2;
    for (let j = 0; j < d; j++) {
      for (let i = 0; i < d; i++) {
        const x = (i + 0.5 - c) / c, y = (j + 0.5 - c) / c;
        table[j * d + i] = Math.sqrt(Math.max(0, 1 - x * x - y * y));
      }
    }
    depthTables.set(d, { table, used: spriteFrame });
    depthTablePixels += d * d;
    return table;
  }

  // Camera-space corners of `corners` clipped to the part in front of the near plane
  // (Sutherland–Hodgman against depth ≥ near): 0, 3 or 4 points [x, y, depth].
  function clipNear(corners) {
    const near = basis.near;
    const c = corners.map((p) => toCamera(p[0], p[1], p[2]));
    if (c[0][2] >= near && c[1][2] >= near && c[2][2] >= near) return c;
    const out = [];
    for (let k = 0; k < 3; k++) {
      const a = c[k], b = c[(k + 1) % 3];
      if (a[2] >= near) out.push(a);
      if ((a[2] >= near) !== (b[2] >= near)) {
        const t = (near - a[2]) / (b[2] - a[2]);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), near]);
      }
    }
    return out;
  }

  // Device-pixel screen point and inverse depth [x, y, 1/depth] of a camera-space point in
  // front of the near plane.
  function screenPoint(c, dpr) {
    const k = basis.focal / c[2];
    return [(basis.w2 + c[0] * k) * dpr, (basis.h2 - c[1] * k) * dpr, 1 / c[2]];
  }

  // The part of world segment a–b in front of the near plane, as two screen points (or null).
  function screenSegment(a, b, dpr) {
    const seg = clipNear([a, b, b]); // a degenerate triangle: the segment's clipped points
    return seg.length < 2 ? null : [screenPoint(seg[0], dpr), screenPoint(seg[1], dpr)];
  }

  // Blends `rgb` at alpha k / 256 over the opaque pixel v (little-endian RGBA, 0xAABBGGRR).
  function blendPixel(v, r, g, b, k) {
    const keep = 256 - k;
    return 0xff000000 | ((((v >>> 16) & 255) * keep + b * k) >> 8) << 16 |
      ((((v >>> 8) & 255) * keep + g * k) >> 8) << 8 | (((v & 255) * keep + r * k) >> 8);
  }

  // The frame's spheres (`keys`, back to front), `triangles` and the box's edges into the
  // canvas's pixels with a depth buffer, within the screen box that holds them (the canvas
  // holds only its background there: nothing is read back). Returns [spheres, triangles]
  // drawn.
  function depthComposite(ctx, keys, n, dpr, triangles) {
    const W = sceneCanvas.width, H = sceneCanvas.height;
    spriteFrame += 1;
    if (!pixelImage || pixelImage.width !== W || pixelImage.height !== H) {
      pixelImage = ctx.createImageData(W, H);
      depthBuffer = new Float32Array(W * H);
    }
    // Signed: V8 keeps int32 pixels unboxed (opaque ones, over 2^31, would be doubles).
    const out = new Int32Array(pixelImage.data.buffer), zb = depthBuffer;
    // Each triangle's visible polygon in device pixels (3 or 4 points; none behind the eye),
    // and the lines: the triangles' own sides (not the near plane's cut across a face) and
    // the box's twelve edges.
    const polygons = triangles.map((t) => clipNear(t).map((c) => screenPoint(c, dpr)));
    const edges = [];
    for (const t of triangles) {
      for (let k = 0; k < 3; k++) {
        const seg = screenSegment(t[k], t[(k + 1) % 3], dpr);
        if (seg) edges.push(seg);
      }
    }
    const boxEdges = [];
    if (scene.box3) {
      const [bx0, by0, bz0, bx1, by1, bz1] = scene.box3;
      const corner = (k) => [k & 1 ? bx1 : bx0, k & 2 ? by1 : by0, k & 4 ? bz1 : bz0];
      for (let k = 0; k < 8; k++) {
        for (let axis = 0; axis < 3; axis++) {
          if (k & (1 << axis)) continue;
          const seg = screenSegment(corner(k), corner(k | (1 << axis)), dpr);
          if (seg) boxEdges.push(seg);
        }
      }
    }
    let x0 = W, y0 = H, x1 = 0, y1 = 0;
    const grow = (ax, ay, bx, by) => {
      if (ax < x0) x0 = ax;
      if (ay < y0) y0 = ay;
      if (bx > x1) x1 = bx;
      if (by > y1) y1 = by;
    };
    const pad = Math.ceil(BOX_WIDTH * dpr) + 1;
    for (const poly of [...polygons, ...edges, ...boxEdges]) {
      for (const [x, y] of poly) grow(x - pad, y - pad, x + pad, y + pad);
    }
    for (let k = 0; k < keys.length; k++) {
      const item = keys[k] % INDEX_SPAN;
      const x = proj[4 * item] * dpr, y = proj[4 * item + 1] * dpr, r = proj[4 * item + 2] * dpr + 2;
      grow(x - r, y - r, x + r, y + r);
    }
    const X0 = Math.max(0, Math.floor(x0)), Y0 = Math.max(0, Math.floor(y0));
    const X1 = Math.min(W, Math.ceil(x1)), Y1 = Math.min(H, Math.ceil(y1));
    if (X1 <= X0 || Y1 <= Y0) return [0, 0];
    for (let y = Y0; y < Y1; y++) {
      out.fill(BACKGROUND | 0, y * W + X0, y * W + X1);
      zb.fill(Infinity, y * W + X0, y * W + X1);
    }
    const clip = [X0, Y0, X1, Y1];
    const spheres = depthSpheres(out, zb, W, clip, keys, n, dpr);
    // Lines before faces: a line writes its depth where it mostly covers a pixel, so a face
    // behind it leaves it alone and a face in front of it tints it.
    for (const [a, b] of boxEdges) depthLine(out, zb, W, clip, a, b, BOX_WIDTH * dpr, BOX_RGB, BOX_ALPHA);
    for (const [a, b] of edges) depthLine(out, zb, W, clip, a, b, EDGE_WIDTH * dpr, EDGE_RGB, EDGE_ALPHA);
    let drawn = 0;
    for (const poly of polygons) {
      if (poly.length < 3) continue;
      drawn += 1;
      for (let k = 1; k + 1 < poly.length; k++) depthFace(out, zb, W, clip, poly[0], poly[k], poly[k + 1]);
    }
    ctx.putImageData(pixelImage, 0, 0, X0, Y0, X1 - X0, Y1 - Y0);
    return [spheres, drawn];
  }

  // The spheres' sprites, back to front, each pixel at its depth (depthTable). The antialiased
  // rim (alpha below 255) is blended, and writes depth only where it is at least half covered.
  function depthSpheres(out, zb, W, [X0, Y0, X1, Y1], keys, n, dpr) {
    const near = basis.near;
    let drawn = 0;
    for (let k = 0; k < keys.length; k++) {
      const item = keys[k] % INDEX_SPAN;
      const colour = item < n ? agentColours[item] : AGENT_HUES + sphereSprites[item - n];
      const d = Math.max(2, Math.round(2 * proj[4 * item + 2] * dpr));
      const spr = rasterSprite(colour, d), px = spr.ints, spans = spr.spans, table = depthTable(d);
      const depth = proj[4 * item + 3];
      const radius = Math.min(item < n ? scene.radii[item] : scene.ball_radii[item - n], depth - near);
      const left = Math.round(proj[4 * item] * dpr - d / 2), top = Math.round(proj[4 * item + 1] * dpr - d / 2);
      const i0 = Math.max(0, X0 - left), i1 = Math.min(d, X1 - left);
      const j0 = Math.max(0, Y0 - top), j1 = Math.min(d, Y1 - top);
      for (let j = j0; j < j1; j++) {
        const row = (top + j) * W + left, src = j * d;
        for (let i = Math.max(i0, spans[2 * j]), end = Math.min(i1, spans[2 * j + 1]); i < end; i++) {
          const p = px[src + i], a = p >>> 24;
          if (a === 0) continue; // transparent
          const z = depth - radius * table[src + i], q = row + i;
          if (!(z < zb[q])) continue;
          if (a === 255) {
            out[q] = p;
            zb[q] = z;
          } else {
            out[q] = blendPixel(out[q], p & 255, (p >>> 8) & 255, (p >>> 16) & 255, a + (a >> 7));
            if (a >= 128) zb[q] = z;
          }
        }
      }
      drawn += 1;
    }
    return drawn;
  }

  // One translucent face (device-pixel points [x, y, 1/depth]), scan line by scan line: pixel
  // centres in [top, bottom) × [left, right), each edge's x found from its upper end, so that
  // faces sharing an edge (a mesh, a clipped quad's two halves) blend each pixel once.
  function depthFace(out, zb, W, [X0, Y0, X1, Y1], p, q, r) {
    // Inverse depth as the plane w = wa·x + wb·y + wc through the three points.
    const e1x = q[0] - p[0], e1y = q[1] - p[1], e1w = q[2] - p[2];
    const e2x = r[0] - p[0], e2y = r[1] - p[1], e2w = r[2] - p[2];
    const det = e1x * e2y - e2x * e1y;
    if (!(Math.abs(det) > 1e-9)) return; // edge-on: only its edges show
    const wa = (e1w * e2y - e2w * e1y) / det, wb = (e2w * e1x - e1w * e2x) / det;
    const wc = p[2] - wa * p[0] - wb * p[1];
    const [A, B, C] = [p, q, r].sort((u, v) => u[1] - v[1]);
    const xAt = (u, v, y) => u[0] + ((y - u[1]) * (v[0] - u[0])) / (v[1] - u[1]);
    // Blending two channels at once: red and blue 16 bits apart, green alone (no carries:
    // 255 · 256 < 2^16).
    const k = Math.round(FACE_ALPHA * 256), keep = 256 - k;
    const crb = (FACE_RGB[0] | (FACE_RGB[2] << 16)) * k, cg = (FACE_RGB[1] << 8) * k;
    const jTop = Math.max(Y0, Math.ceil(A[1] - 0.5)), jEnd = Math.min(Y1, Math.ceil(C[1] - 0.5));
    for (let j = jTop; j < jEnd; j++) {
      const y = j + 0.5;
      const xl = xAt(A, C, y), xs = y < B[1] ? xAt(A, B, y) : xAt(B, C, y);
      const left = Math.max(X0, Math.ceil(Math.min(xl, xs) - 0.5));
      const right = Math.min(X1, Math.ceil(Math.max(xl, xs) - 0.5));
      if (right <= left) continue;
      let w = wa * (left + 0.5) + wb * y + wc;
      for (let at = j * W + left, end = j * W + right; at < end; at++, w += wa) {
        if (w * zb[at] > 1) {
          const v = out[at];
          out[at] = 0xff000000 | ((((v & 0xff00ff) * keep + crb) >>> 8) & 0xff00ff) | ((((v & 0xff00) * keep + cg) >>> 8) & 0xff00);
        }
      }
    }
  }

  // An antialiased line `width` device pixels wide between device-pixel points [x, y, 1/depth]:
  // along its major axis one pixel column (or row) at a time, each pixel across it blended by
  // the part of it the line covers, where the line is nearer than the depth buffer.
  function depthLine(out, zb, W, [X0, Y0, X1, Y1], p, q, width, [R, G, B], alpha) {
    let [ax, ay, aw] = p, [bx, by, bw] = q;
    const steep = Math.abs(by - ay) > Math.abs(bx - ax);
    // Along x for a flat line; for a steep one swap the roles of x and y.
    if (steep) [ax, ay, bx, by] = [ay, ax, by, bx];
    if (bx < ax) [ax, ay, aw, bx, by, bw] = [bx, by, bw, ax, ay, aw];
    const len = Math.hypot(bx - ax, by - ay);
    if (!(len > 0)) return;
    const run = Math.max(bx - ax, 1e-9);
    const slope = (by - ay) / run, wSlope = (bw - aw) / run;
    // Half the line's extent across the major axis, for `width` measured perpendicular to it.
    const half = (width / 2) * (len / run);
    const [lo, hi, acrossLo, acrossHi] = steep ? [Y0, Y1, X0, X1] : [X0, X1, Y0, Y1];
    const i0 = Math.max(lo, Math.ceil(ax - 0.5)), i1 = Math.min(hi, Math.ceil(bx - 0.5));
    for (let i = i0; i < i1; i++) {
      const x = i + 0.5, y = ay + (x - ax) * slope, w = (aw + (x - ax) * wSlope) * (1 + LINE_BIAS);
      const jLo = Math.max(acrossLo, Math.floor(y - half)), jHi = Math.min(acrossHi - 1, Math.floor(y + half));
      for (let j = jLo; j <= jHi; j++) {
        const cover = Math.min(j + 1, y + half) - Math.max(j, y - half);
        if (cover <= 0) continue;
        const at = steep ? i * W + j : j * W + i;
        if (!(w * zb[at] > 1)) continue;
        const opacity = alpha * Math.min(cover, 1);
        out[at] = blendPixel(out[at], R, G, B, Math.round(opacity * 256));
        // Biased nearer, so that the line's own face (at the same depth) does not cover it.
        if (opacity >= 0.5) zb[at] = 1 / w;
      }
    }
  }

  // A world segment, clipped to the part in front of the eye; drawn as its own path.
  function segment3d(ctx, a, b) {
    let ca = toCamera(a[0], a[1], a[2]), cb = toCamera(b[0], b[1], b[2]);
    const near = basis.near;
    if (ca[2] <= near && cb[2] <= near) return;
    if (ca[2] <= near || cb[2] <= near) {
      const t = (near - ca[2]) / (cb[2] - ca[2]);
      const cut = [ca[0] + t * (cb[0] - ca[0]), ca[1] + t * (cb[1] - ca[1]), near];
      if (ca[2] <= near) ca = cut; else cb = cut;
    }
    const s = (c) => [basis.w2 + (c[0] * basis.focal) / c[2], basis.h2 - (c[1] * basis.focal) / c[2]];
    const [ax, ay] = s(ca), [bx, by] = s(cb);
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.stroke();
  }

  // The box's edges: `front` false draws those behind the spheres (before them), true those
  // of the faces turned to the eye (after them), so that the box reads as solid.
  function drawBox3d(ctx, front) {
    if (!scene.box3) return;
    const [x0, y0, z0, x1, y1, z1] = scene.box3;
    const lo = [x0, y0, z0], hi = [x1, y1, z1], eye = [basis.ex, basis.ey, basis.ez];
    // Face (axis a, side 0 = min / 1 = max) faces the eye when the eye is beyond its plane.
    const faces = (a, side) => (side ? eye[a] > hi[a] : eye[a] < lo[a]);
    const corner = (k) => [k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0];
    ctx.strokeStyle = 'rgba(74, 85, 104, 0.75)';
    ctx.lineWidth = 1.5;
    for (let k = 0; k < 8; k++) {
      for (let axis = 0; axis < 3; axis++) {
        if (k & (1 << axis)) continue;
        // The edge along `axis` from corner k borders one face of each other axis.
        const visible = [0, 1, 2].some((a) => a !== axis && faces(a, (k >> a) & 1));
        if (visible === front) segment3d(ctx, corner(k), corner(k | (1 << axis)));
      }
    }
  }

  function drawLinks3d(ctx) {
    if (!$('links').checked || frame.links.length === 0) return;
    ctx.strokeStyle = 'rgba(74, 85, 104, 0.5)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    const l = frame.links;
    for (let k = 0; k < l.length; k += 2) {
      const a = l[k], c = l[k + 1];
      if (proj[4 * a + 3] <= basis.near || proj[4 * c + 3] <= basis.near) continue;
      ctx.moveTo(proj[4 * a], proj[4 * a + 1]);
      ctx.lineTo(proj[4 * c], proj[4 * c + 1]);
    }
    ctx.stroke();
  }

  function drawTrails3d(ctx) {
    const n = frame.n;
    if (!$('trails').checked || trails.length < 2 || trails.count !== n || trails.dim !== 3) return;
    ctx.strokeStyle = 'rgba(49, 130, 206, 0.3)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    const oldest = (trails.head - trails.length + TRAIL_LENGTH) % TRAIL_LENGTH;
    const d = trails.data;
    for (let i = 0; i < n; i++) {
      let pen = false;
      for (let k = 0; k < trails.length; k++) {
        const at = ((oldest + k) % TRAIL_LENGTH) * 3 * n + 3 * i;
        const [sx, sy, depth] = project(d[at], d[at + 1], d[at + 2]);
        if (depth <= basis.near) { pen = false; continue; }
        if (pen) ctx.lineTo(sx, sy); else ctx.moveTo(sx, sy);
        pen = true;
      }
    }
    ctx.stroke();
  }

  function drawSelection3d(ctx) {
    if (selectedId === null) return;
    const i = agentIndex(selectedId);
    if (i < 0 || i >= frame.n || proj[4 * i + 3] <= basis.near) return;
    const ring = (k, color, width) => {
      if (proj[4 * k + 3] <= basis.near) return;
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(proj[4 * k], proj[4 * k + 1], Math.max(proj[4 * k + 2], 3) + width, 0, 2 * Math.PI);
      ctx.stroke();
    };
    const ax = proj[4 * i], ay = proj[4 * i + 1];
    if (inspected && inspected.agent === selectedId && inspected.dimensions === 3) {
      ctx.strokeStyle = 'rgba(221, 107, 32, 0.8)';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const k of inspected.neighbor_indices) {
        if (k >= frame.n || proj[4 * k + 3] <= basis.near) continue;
        ctx.moveTo(ax, ay);
        ctx.lineTo(proj[4 * k], proj[4 * k + 1]);
      }
      ctx.stroke();
      for (const k of inspected.neighbor_indices) if (k < frame.n) ring(k, '#dd6b20', 2);
    }
    const route = inspected && inspected.agent === selectedId && inspected.dimensions === 3 ? inspected.route : [];
    if (route && route.length >= 2) {
      // Roadmap navigation: the way the agent means to fly, waypoint by waypoint (why its
      // preferred velocity points where it does), instead of the straight line to its goal.
      ctx.strokeStyle = '#38a169';
      ctx.lineWidth = 2;
      for (let k = 1; k < route.length; k++) segment3d(ctx, route[k - 1], route[k]);
      ctx.fillStyle = '#38a169';
      for (const p of route.slice(1, -1)) {
        const [px, py, pd] = project(p[0], p[1], p[2]);
        if (pd <= basis.near) continue;
        ctx.beginPath();
        ctx.arc(px, py, 3, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    const goal = scene.goals3 && scene.goals3[i];
    if (goal) {
      const [gx, gy, gd] = project(goal[0], goal[1], goal[2]);
      if (gd > basis.near) {
        ctx.strokeStyle = '#38a169';
        ctx.lineWidth = 1.5;
        ctx.setLineDash([4, 4]);
        if (!(route && route.length >= 2)) {
          ctx.beginPath();
          ctx.moveTo(ax, ay);
          ctx.lineTo(gx, gy);
          ctx.stroke();
        }
        ctx.setLineDash([]);
        ctx.beginPath();
        ctx.moveTo(gx - 5, gy - 5); ctx.lineTo(gx + 5, gy + 5);
        ctx.moveTo(gx - 5, gy + 5); ctx.lineTo(gx + 5, gy - 5);
        ctx.stroke();
      }
    }
    ring(i, '#c53030', 3);
  }

  // The world axes in the corner (x red, y green, z blue), turned with the camera.
  function drawAxes3d(ctx, h) {
    const ox = 34, oy = h - 34, len = 22;
    const b = basis;
    ctx.lineWidth = 2;
    ctx.font = '11px system-ui, sans-serif';
    [['x', '#c53030', [1, 0, 0]], ['y', '#2f855a', [0, 1, 0]], ['z', '#2b6cb0', [0, 0, 1]]].forEach(([label, color, [x, y, z]]) => {
      const sx = x * b.rx + y * b.ry + z * b.rz, sy = x * b.ux + y * b.uy + z * b.uz;
      ctx.strokeStyle = color;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.moveTo(ox, oy);
      ctx.lineTo(ox + sx * len, oy - sy * len);
      ctx.stroke();
      ctx.fillText(label, ox + sx * (len + 6) - 3, oy - sy * (len + 6) + 4);
    });
  }

  // The front-most agent whose projected sphere covers (sx, sy), or within 6 px; -1 if none.
  function pick3d(sx, sy) {
    let best = -1, bestDepth = Infinity;
    for (let i = 0; i < frame.n; i++) {
      const d = proj[4 * i + 3];
      if (!(d > basis.near)) continue;
      const reach = Math.max(proj[4 * i + 2], 6);
      const dx = proj[4 * i] - sx, dy = proj[4 * i + 1] - sy;
      if (dx * dx + dy * dy <= reach * reach && d < bestDepth) { best = i; bestDepth = d; }
    }
    return best;
  }

  function orbit(dx, dy) {
    camera.yaw -= dx * 0.008;
    camera.pitch = Math.max(-1.55, Math.min(1.55, camera.pitch + dy * 0.008));
    dirty = true;
    if (inspected && inspected.dimensions === 3) drawInspector();
  }

  function pan3d(dx, dy) {
    // One pixel at the target's depth covers distance × tan(fov/2) / (h/2) metres.
    const h = Math.max(sceneCanvas.clientHeight, 1);
    const metres = (camera.distance * Math.tan(FOV / 2)) / (h / 2);
    const b = basis;
    camera.target = [
      camera.target[0] + (-dx * b.rx + dy * b.ux) * metres,
      camera.target[1] + (-dx * b.ry + dy * b.uy) * metres,
      camera.target[2] + (-dx * b.rz + dy * b.uz) * metres,
    ];
    dirty = true;
  }

  // ----- the inspector in 3-D: the agent's velocity space, turned like the scene -----
  function drawInspector3d(r) {
    const lp = $('insp-lp');
    if (r.outcome.program === 'LP3') {
      lp.textContent = 'LP3 feasible: the nearest permitted velocity to the preferred one (RVO2-3D linearProgram3)';
      lp.className = 'lp feasible';
    } else {
      lp.textContent = `LP4 fallback: planes conflict from #${r.outcome.first_infeasible}; least violation (RVO2-3D linearProgram4)`;
      lp.className = 'lp fallback';
    }
    const v3 = (v) => `(${v[0].toFixed(3)}, ${v[1].toFixed(3)}, ${v[2].toFixed(3)}) |${Math.hypot(v[0], v[1], v[2]).toFixed(3)}| m/s`;
    $('insp-neighbors').textContent = `${r.neighbors.length} of at most ${r.max_neighbors} within ${r.neighbor_dist} m`;
    const waypoints = r.route && r.route.length > 2 ? r.route.length - 2 : 0;
    $('insp-pref').textContent = v3(r.pref_velocity) +
      (waypoints > 0 ? ` — roadmap: ${waypoints} waypoint${waypoints > 1 ? 's' : ''} to the goal (green path)` : '');
    $('insp-vel').textContent = v3(r.velocity);
    $('insp-max').textContent = `${r.max_speed} m/s`;
    $('insp-horizons').textContent = r.obstacle_planes > 0 || r.obstacle_time_horizon !== r.time_horizon
      ? `agents ${r.time_horizon} s, obstacles ${r.obstacle_time_horizon} s` : `agents ${r.time_horizon} s`;
    $('insp-layers-label').hidden = true; // the 3-D inspector does not report avoidance layers
    $('insp-layers-row').hidden = true;
    $('insp-planes-label').textContent = 'ORCA planes';
    $('insp-table-summary').textContent = 'Plane values (m/s; permitted side: (v − point) · normal ≥ 0)';
    $('insp-table-direction').textContent = 'normal';
    $('insp-legend').textContent =
      'Velocity space in 3-D, turned with the scene (drag either view): each ORCA plane as a disc cut by the max-speed sphere (dashed outline), ' +
      'its arrow pointing to the permitted side (a dashed disc: the plane misses the sphere): agent planes blue, obstacle planes orange ' +
      '(hard: kept when the planes conflict); preferred velocity green, chosen purple, the first conflicting plane red. Values from the library.';

    resizeCanvas(velocityCanvas, velocityCtx);
    const ctx = velocityCtx;
    const W = velocityCanvas.clientWidth, H = velocityCanvas.clientHeight;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    const norm = (v) => Math.hypot(v[0], v[1], v[2]);
    const R = r.max_speed;
    const extent = 1.35 * Math.max(R, norm(r.pref_velocity), norm(r.velocity), 0.1);
    const s = Math.min(W, H) / 2 / extent;
    // The scene camera's rotation, orthographic: velocity space has no natural eye distance.
    cameraBasis(sceneCanvas.clientWidth || 1, sceneCanvas.clientHeight || 1);
    const b = basis;
    const P = (v) => [W / 2 + (v[0] * b.rx + v[1] * b.ry + v[2] * b.rz) * s, H / 2 - (v[0] * b.ux + v[1] * b.uy + v[2] * b.uz) * s];
    const depth = (v) => v[0] * b.fx + v[1] * b.fy + v[2] * b.fz;

    // Axes through the origin (zero velocity).
    ctx.lineWidth = 1;
    ctx.font = '10px system-ui, sans-serif';
    [['vx', '#feb2b2', [1, 0, 0]], ['vy', '#9ae6b4', [0, 1, 0]], ['vz', '#90cdf4', [0, 0, 1]]].forEach(([label, color, a]) => {
      const [x0, y0] = P(a.map((c) => -c * extent)), [x1, y1] = P(a.map((c) => c * extent));
      ctx.strokeStyle = color;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.stroke();
      ctx.fillStyle = color;
      ctx.fillText(label, x1 + 2, y1 - 2);
    });

    // Max-speed sphere: its outline and its equator.
    const [ox, oy] = P([0, 0, 0]);
    ctx.strokeStyle = '#1a202c';
    ctx.lineWidth = 1.5;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.arc(ox, oy, R * s, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = 'rgba(26, 32, 44, 0.3)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let k = 0; k <= 48; k++) {
      const a = (k / 48) * 2 * Math.PI;
      const [x, y] = P([R * Math.cos(a), R * Math.sin(a), 0]);
      if (k === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
    ctx.setLineDash([]);

    // Planes, far to near: the disc where each cuts the speed sphere.
    const finite = (p) => p.point.every(Number.isFinite) && p.normal.every(Number.isFinite);
    const order = r.planes.map((p, k) => k).filter((k) => finite(r.planes[k]));
    const centre = (p) => {
      const d = p.normal[0] * p.point[0] + p.normal[1] * p.point[1] + p.normal[2] * p.point[2];
      return [d, p.normal.map((c) => c * d)];
    };
    order.sort((a, c) => depth(centre(r.planes[c])[1]) - depth(centre(r.planes[a])[1]));
    let drawn = 0, drawnObstacle = 0;
    for (const k of order) {
      const plane = r.planes[k];
      const n = plane.normal;
      const [d, c] = centre(plane);
      const cuts = Math.abs(d) < R;
      const rho = cuts ? Math.sqrt(R * R - d * d) : 0.25 * R;
      // Two unit vectors spanning the plane.
      const helper = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
      let u = [n[1] * helper[2] - n[2] * helper[1], n[2] * helper[0] - n[0] * helper[2], n[0] * helper[1] - n[1] * helper[0]];
      const ul = norm(u);
      u = u.map((x) => x / ul);
      const v = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
      const first = r.outcome.program === 'LP4' && k === r.outcome.first_infeasible;
      // Obstacles orange (as the planar inspector's obstacle half-planes), agents blue.
      const obstacle = plane.kind === 'obstacle';
      const rgb = first ? '197, 48, 48' : obstacle ? '221, 107, 32' : '49, 130, 206';
      ctx.beginPath();
      for (let j = 0; j <= 40; j++) {
        const a = (j / 40) * 2 * Math.PI, ca = Math.cos(a) * rho, sa = Math.sin(a) * rho;
        const [x, y] = P([c[0] + ca * u[0] + sa * v[0], c[1] + ca * u[1] + sa * v[1], c[2] + ca * u[2] + sa * v[2]]);
        if (j === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      }
      ctx.closePath();
      ctx.fillStyle = `rgba(${rgb}, ${cuts ? 0.1 : 0.04})`;
      ctx.fill();
      ctx.strokeStyle = `rgba(${rgb}, 0.85)`;
      ctx.lineWidth = first ? 2.5 : 1.2;
      if (!cuts) ctx.setLineDash([3, 3]);
      ctx.stroke();
      ctx.setLineDash([]);
      // The permitted side: an arrow from the disc's centre along the normal.
      const [x0, y0] = P(c), [x1, y1] = P(c.map((x, i) => x + n[i] * 0.3 * R));
      arrow(ctx, x0, y0, x1, y1, `rgba(${rgb}, 0.9)`, 1.5);
      drawn += 1;
      if (obstacle) drawnObstacle += 1;
    }

    arrow(ctx, ox, oy, ...P(r.velocity), '#805ad5', 4);
    ctx.fillStyle = '#805ad5';
    ctx.beginPath();
    ctx.arc(...P(r.velocity), 4.5, 0, 2 * Math.PI);
    ctx.fill();
    arrow(ctx, ox, oy, ...P(r.pref_velocity), '#38a169', 1.5);
    ctx.fillStyle = '#4a5568';
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillText(`velocity space, ±${extent.toFixed(2)} m/s`, 6, H - 6);

    const f3 = (v) => `(${v.map((x) => (Number.isFinite(x) ? x.toFixed(3) : 'NaN')).join(', ')})`;
    const rows = r.planes.map((p, k) => {
      const row = document.createElement('tr');
      row.className = p.kind;
      for (const text of [k, p.kind, f3(p.point.map((x) => (x === null ? NaN : x))), f3(p.normal.map((x) => (x === null ? NaN : x)))]) {
        const cell = document.createElement('td');
        cell.textContent = String(text);
        row.appendChild(cell);
      }
      return row;
    });
    document.querySelector('#insp-table tbody').replaceChildren(...rows);

    const count = $('insp-half-planes');
    count.textContent = String(r.planes.length);
    count.dataset.drawn = String(drawn);
    $('insp-agent-planes').textContent = String(r.agent_planes);
    $('insp-obstacle-planes').textContent = String(r.obstacle_planes);
    // Obstacle planes only where the scene has static obstacles (RVO2-3D has none).
    $('insp-obstacle-key').hidden = !(scene && scene.triangles && scene.triangles.length > 0);
    $('insp-acceleration-key').hidden = true; // no acceleration limits in swerve's 3-D crowds
    Object.assign(inspectorState, {
      agent: r.agent, step: r.step, version: r.version,
      halfPlanes: r.planes.length, obstacleHalfPlanes: r.obstacle_planes, agentHalfPlanes: r.agent_planes,
      drawnHalfPlanes: drawn, drawnObstacle, drawnAgent: drawn - drawnObstacle, outcome: r.outcome.program, neighbors: r.neighbors.length,
      route: r.route ? r.route.map((p) => p.slice()) : [],
    });
  }

  // ----- input -----
  let drag = null;
  sceneCanvas.addEventListener('mousedown', (e) => {
    // In 3-D: drag orbits; shift-drag or right-drag pans.
    drag = { x: e.clientX, y: e.clientY, moved: false, pan: e.shiftKey || e.button === 2 };
  });
  sceneCanvas.addEventListener('contextmenu', (e) => { if (is3d()) e.preventDefault(); });
  // Dragging the inspector's velocity space turns the shared camera too.
  velocityCanvas.addEventListener('mousedown', (e) => {
    if (inspected && inspected.dimensions === 3) drag = { x: e.clientX, y: e.clientY, moved: false, pan: false, velocity: true };
  });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved && is3d()) {
      if (drag.pan) pan3d(dx, dy); else orbit(dx, dy);
      drag.x = e.clientX;
      drag.y = e.clientY;
    } else if (drag.moved) {
      view.cx -= dx / view.scale;
      view.cy += dy / view.scale;
      drag.x = e.clientX;
      drag.y = e.clientY;
      dirty = true;
    }
  });
  window.addEventListener('mouseup', (e) => {
    const wasClick = drag && !drag.moved && !drag.velocity && e.target === sceneCanvas && e.button === 0;
    drag = null;
    if (!wasClick || !frame) return;
    const i = is3d() ? pick3d(e.offsetX, e.offsetY) : pick(e.offsetX, e.offsetY);
    if (i >= 0) select(scene.ids[i]);
  });
  sceneCanvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (is3d()) {
      camera.distance *= Math.pow(1.0015, e.deltaY);
      dirty = true;
      return;
    }
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
        dimensions: scene ? (scene.dimensions === 3 ? 3 : 2) : null,
        triangles: scene && scene.triangles ? scene.triangles.length : 0,
        ...depthCounters,
        ...counters,
      };
    },
    get inspector() { return { ...inspectorState }; },
    // Where agent `index` is drawn, in page coordinates (CSS pixels).
    agentScreenPosition(index) {
      if (!frame || index >= frame.n) return null;
      const rect = sceneCanvas.getBoundingClientRect();
      if (is3d()) {
        // As last drawn: screen centre, projected radius, and depth from the eye (m).
        const k = 4 * index;
        if (!(proj[k + 3] > basis.near)) return null;
        return { x: rect.left + proj[k], y: rect.top + proj[k + 1], radius: proj[k + 2], depth: proj[k + 3] };
      }
      const [sx, sy] = toScreen(frame.positions[2 * index], frame.positions[2 * index + 1]);
      return { x: rect.left + sx, y: rect.top + sy, radius: scene.radii[index] * view.scale };
    },
    // The screen box around all agents (CSS pixels, page coordinates).
    agentBox() {
      if (!frame || frame.n === 0) return null;
      const rect = sceneCanvas.getBoundingClientRect();
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      if (is3d()) {
        for (let i = 0; i < frame.n; i++) {
          if (!(proj[4 * i + 3] > basis.near)) continue;
          x0 = Math.min(x0, proj[4 * i]); y0 = Math.min(y0, proj[4 * i + 1]);
          x1 = Math.max(x1, proj[4 * i]); y1 = Math.max(y1, proj[4 * i + 1]);
        }
        return { x: rect.left + x0, y: rect.top + y0, width: x1 - x0, height: y1 - y0 };
      }
      for (let i = 0; i < frame.n; i++) {
        const [sx, sy] = toScreen(frame.positions[2 * i], frame.positions[2 * i + 1]);
        x0 = Math.min(x0, sx); y0 = Math.min(y0, sy); x1 = Math.max(x1, sx); y1 = Math.max(y1, sy);
      }
      return { x: rect.left + x0, y: rect.top + y0, width: x1 - x0, height: y1 - y0 };
    },
    fit,
    // Opens the inspector on agent `id`, as a click on it does.
    inspect(id) { select(id); },
    // The 3-D camera (yaw, pitch in rad; distance in m; target point).
    get camera() { return { ...camera, target: [...camera.target] }; },
    // Redraw on every animation frame even without new data (to measure drawing alone).
    setContinuousRedraw(on) { continuousRedraw = Boolean(on); },
  };
})();
