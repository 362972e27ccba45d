// The sample game page: everything a game does with the SDK, in plain DOM code bound to the SDK's state.
// The SDK comes from the <script> tag (global GameCampaign); the game server is this page's origin.
const { createGameCampaign } = window.GameCampaign;
const $ = (id) => document.getElementById(id);
const config = await (await fetch('/demo/config')).json();

let gc;
let picker;
let token;
let offline = false;
let playStartedAt;
let stats;
let clockOffsetMs = config.clockOffsetMs;

/** The game's own login: the relay knows the player only through this token. */
async function login(userId) {
  const answer = await fetch('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId }) });
  return (await answer.json()).token;
}

/** While "Offline" is on, requests to the game server fail as a dead network would make them fail. */
function gameFetch(input, init) {
  const url = typeof input === 'string' ? input : input.url;
  if (offline && url.startsWith(config.relayUrl)) return Promise.reject(new TypeError('Failed to fetch (the sample is offline)'));
  return fetch(input, init);
}

async function switchPlayer(userId) {
  await gc?.dispose();
  picker = undefined;
  token = await login(userId);
  gc = createGameCampaign({
    clientKey: config.clientKey,
    environment: { baseUrl: config.apiBaseUrl },
    relay: { url: config.relayUrl, headers: () => ({ authorization: `Bearer ${token}` }) },
    userId,
    // Each player gets their own IndexedDB database; the offline switch wraps the page's fetch.
    browser: { dbName: `sample-${userId}`, fetch: gameFetch },
  });
  stats = { queued: 0, dropped: 0, lastFlush: undefined };
  gc.tracker.on('session:end', () => ((stats.queued += 1), renderStats()));
  gc.tracker.on('flushed', ({ results }) => {
    stats.queued = Math.max(0, stats.queued - results.length);
    stats.lastFlush = new Date();
    renderStats();
    void refreshRecorded();
  });
  gc.tracker.on('dropped', ({ reason }) => {
    stats.dropped += 1;
    stats.queued = Math.max(0, stats.queued - 1);
    $('tracker-note').textContent = `A session was dropped: ${reason}`;
    renderStats();
  });
  gc.tracker.on('error', ({ kind }) => ($('tracker-note').textContent = `Delivery problem (${kind}); the sessions stay queued and are retried.`));
  setPlaying(false);
  await Promise.all([showCampaign(), bindPicker(), refreshRecorded()]);
}

async function showCampaign() {
  const campaign = await gc.campaigns.get(config.campaignId);
  const language = navigator.language.slice(0, 2);
  $('campaign-name').textContent = campaign.campaignName[language] ?? campaign.campaignName.en ?? Object.values(campaign.campaignName)[0];
  $('campaign-dates').textContent = `${new Date(campaign.startDate).toLocaleDateString()} – ${new Date(campaign.endDate).toLocaleDateString()}`;
}

// ---- Play / stop -------------------------------------------------------------------------------------------
function setPlaying(playing) {
  playStartedAt = playing ? performance.now() : undefined;
  $('play').disabled = playing;
  $('stop').disabled = !playing;
  if (!playing) $('play-clock').textContent = '0:00';
}
$('play').onclick = () => {
  gc.tracker.start({ campaignId: config.campaignId });
  setPlaying(true);
};
$('stop').onclick = async () => {
  setPlaying(false);
  await gc.tracker.stop();
  await gc.tracker.flush();
};
setInterval(() => {
  if (playStartedAt === undefined) return;
  const seconds = Math.floor((performance.now() - playStartedAt) / 1000);
  $('play-clock').textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}, 250);

$('offline').onchange = (event) => {
  offline = event.target.checked;
  // The SDK listens for the browser's own signals: going back online flushes the queue at once.
  window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
  $('tracker-note').textContent = offline ? 'Offline: sessions wait in IndexedDB.' : 'Back online: flushing.';
};

function renderStats() {
  $('queued').textContent = String(stats.queued);
  $('dropped').textContent = String(stats.dropped);
  $('last-flush').textContent = stats.lastFlush ? stats.lastFlush.toLocaleTimeString() : 'never';
}

async function refreshRecorded() {
  const answer = await fetch('/demo/sessions', { headers: { authorization: `Bearer ${token}` } });
  if (answer.ok) $('recorded').textContent = String((await answer.json()).sessions.length);
}

// ---- Creator picker: the SDK holds the state, this code only draws it ----------------------------------
async function bindPicker() {
  picker?.dispose();
  // The cooldown is judged by the emulator's clock, which the panel below can move (a game would pass its
  // server-synchronised clock here, so a player's device clock cannot fake the cooldown).
  picker = gc.picker({ campaignId: config.campaignId, now: () => Date.now() + clockOffsetMs });
  picker.on('change', renderPicker);
  renderPicker(picker.state);
}
$('search').oninput = (event) => picker.search(event.target.value);
$('confirm').onclick = () => void picker.confirm();

function renderPicker(state) {
  const list = state.results ?? state.creators;
  const current = state.boost?.creatorKey;
  $('current-boost').textContent = current ?? 'none';
  $('creators').replaceChildren(
    ...(list ?? []).map((creator) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('aria-pressed', String(creator.creatorKey === state.selected));
      button.onclick = () => picker.select(creator.creatorKey);
      const name = document.createElement('span');
      name.textContent = creator.creatorName;
      const key = document.createElement('span');
      key.className = creator.creatorKey === current ? 'current' : 'key';
      key.textContent = creator.creatorKey === current ? 'boosted' : creator.creatorKey;
      button.append(name, key);
      const item = document.createElement('li');
      item.append(button);
      return item;
    }),
  );
  $('confirm').disabled = !state.canConfirm || state.confirming;
  const status = $('picker-status');
  status.className = state.error ? 'error' : state.cooldownDays ? 'warn' : 'muted';
  status.textContent = state.confirming
    ? 'Boosting…'
    : state.cooldownDays
      ? `You can change your boost again in ${state.cooldownDays} days.`
      : state.error
        ? state.error.message
        : '';
}

// ---- Web view ------------------------------------------------------------------------------------------
$('open-webview').onclick = async () => {
  $('webview-status').textContent = 'Opening…';
  try {
    const view = await gc.webview.open({ campaignId: config.campaignId, showCampaignDetail: true });
    $('webview-status').textContent = 'Open.';
    await view.closed;
    $('webview-status').textContent = 'Closed.';
    void bindPicker();
  } catch (error) {
    $('webview-status').textContent = `Could not open: ${error.message}`;
  }
};

// ---- Webhooks the game server verified, live ---------------------------------------------------------------
new EventSource('/events').addEventListener('webhook', (message) => {
  const event = JSON.parse(message.data);
  const item = document.createElement('li');
  const type = document.createElement('code');
  type.textContent = event.type;
  item.append(type, ` ${JSON.stringify(event.data)}`);
  $('feed').prepend(item);
});

// ---- Emulator controls -------------------------------------------------------------------------------------
$('clock-30').onclick = async () => {
  const answer = await fetch('/demo/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ days: 30 }) });
  clockOffsetMs = (await answer.json()).clockOffsetMs;
  $('clock-status').textContent = `The emulator is now ${Math.round(clockOffsetMs / 86_400_000)} days later.`;
  void bindPicker();
};

// ---- Start -------------------------------------------------------------------------------------------------
const players = Object.entries(config.players);
$('player').replaceChildren(
  ...players.map(([label, userId]) => {
    const option = document.createElement('option');
    option.value = userId;
    option.textContent = `${userId} (${label})`;
    return option;
  }),
);
$('player').onchange = (event) => void switchPlayer(event.target.value);
await switchPlayer(players[0][1]);
document.body.dataset.ready = 'true';
