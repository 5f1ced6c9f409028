// The playground's page: draws what one member sees (long-polled from /api/view) the way
// Discord's client does, and sends what they do (/api/act). Plain JavaScript, no build step.
"use strict";

const SUB_COMMAND = 1, SUB_GROUP = 2, STRING = 3, INTEGER = 4, BOOLEAN = 5, USER = 6, CHANNEL = 7,
  ROLE = 8, NUMBER = 10;
const ACTION_ROW = 1, BUTTON = 2, STRING_SELECT = 3, TEXT_INPUT = 4, USER_SELECT = 5,
  CHANNEL_SELECT = 8, SECTION = 9, TEXT_DISPLAY = 10, THUMBNAIL = 11, MEDIA_GALLERY = 12,
  SEPARATOR = 14, CONTAINER = 17, LABEL = 18;
const COMPONENTS_V2 = 1 << 15;

const state = {
  players: [], me: null, channel: null, view: null, changes: -1, polling: 0,
  drawn: new Map(), keys: {}, atBottom: true, dismissed: new Set(), command: null, params: [],
};
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// --- Discord markdown ------------------------------------------------------------------------

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

const STAMP_STYLES = {
  t: { hour: "numeric", minute: "2-digit" },
  T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
  d: { year: "numeric", month: "2-digit", day: "2-digit" },
  D: { year: "numeric", month: "long", day: "numeric" },
  f: { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
  F: { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric",
    minute: "2-digit" },
};

function relative(seconds) {
  const delta = seconds - Date.now() / 1000;
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600],
    ["minute", 60], ["second", 1]];
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(delta) >= size || unit === "second") {
      return format.format(Math.round(delta / size), unit);
    }
  }
  return "";
}

function stamp(seconds, style) {
  const when = new Date(seconds * 1000);
  const text = style === "R" ? relative(seconds)
    : when.toLocaleString(undefined, STAMP_STYLES[style || "f"] || STAMP_STYLES.f);
  return `<span class="stamp" title="${escapeHtml(when.toString())}">${escapeHtml(text)}</span>`;
}

function inline(text) {
  // `text` is escaped HTML; mentions and markup are turned into elements.
  const view = state.view || { users: {}, channels: [], roles: {} };
  return text
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => {
      const mine = id === state.me ? " me" : "";
      return `<span class="mention${mine}">@${escapeHtml(view.users[id] || "unknown-user")}</span>`;
    })
    .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id) =>
      `<span class="mention">@${escapeHtml(view.roles[id] || "role")}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => {
      const channel = view.channels.find((c) => c.id === id);
      return `<span class="mention channel-link" data-channel="${id}">#${
        escapeHtml(channel ? channel.name : "unknown")}</span>`;
    })
    .replace(/&lt;\/([-_\p{L}\p{N} ]+):(\d+)&gt;/gu, (_, name) =>
      `<span class="cmd" data-command="${escapeHtml(name)}">/${escapeHtml(name)}</span>`)
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, secs, style) => stamp(Number(secs), style))
    .replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:")
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g,
      '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>')
    .replace(/\*\*\*(.+?)\*\*\*/gs, "<b><i>$1</i></b>")
    .replace(/\*\*(.+?)\*\*/gs, "<b>$1</b>")
    .replace(/__(.+?)__/gs, "<u>$1</u>")
    .replace(/(^|[^*\w])\*(?!\s)(.+?)\*(?!\w)/gs, "$1<i>$2</i>")
    .replace(/(^|[^_\w])_(?!\s)(.+?)_(?!\w)/gs, "$1<i>$2</i>")
    .replace(/~~(.+?)~~/gs, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/gs, '<span class="spoiler">$1</span>');
}

function markdown(source) {
  // Code first (nothing inside code is markup), then line-level blocks, then inline markup.
  const codes = [];
  let text = escapeHtml(source || "")
    .replace(/```(?:[\w+-]*\n)?([\s\S]*?)```/g, (_, code) => {
      codes.push(`<pre><code>${code.replace(/\n$/, "")}</code></pre>`);
      return `\u0000${codes.length - 1}\u0000`;
    })
    .replace(/`([^`\n]+)`/g, (_, code) => {
      codes.push(`<code>${code}</code>`);
      return `\u0000${codes.length - 1}\u0000`;
    });
  const lines = text.split("\n").map((line) => {
    let m;
    if ((m = line.match(/^(#{1,3}) (.*)$/))) return `<h${m[1].length}>${inline(m[2])}</h${m[1].length}>`;
    if ((m = line.match(/^-# (.*)$/))) return `<span class="sub">${inline(m[1])}</span>`;
    if ((m = line.match(/^&gt; (.*)$/))) return `<blockquote>${inline(m[1])}</blockquote>`;
    if ((m = line.match(/^(\s*)[-*] (.*)$/))) return `${m[1]}• ${inline(m[2])}`;
    return inline(line);
  });
  text = lines.join("\n").replace(/\n?(<\/?(?:h\d|blockquote)>)\n?/g, "$1");
  return text.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

function richText(source, cls = "content") {
  const node = el("div", { class: cls });
  node.innerHTML = markdown(source);
  return node;
}

// --- messages ----------------------------------------------------------------------------------

function attachmentUrl(message, url) {
  if (!url) return null;
  if (url.startsWith("attachment://")) {
    const name = url.slice("attachment://".length);
    const found = message.attachments.find((a) => a.filename === name);
    return found ? found.url : null;
  }
  return url;
}

function embedNode(message, embed) {
  const color = embed.color !== undefined ? `#${embed.color.toString(16).padStart(6, "0")}` : null;
  const image = attachmentUrl(message, embed.image && embed.image.url);
  const thumb = attachmentUrl(message, embed.thumbnail && embed.thumbnail.url);
  const body = el("div", { class: "e-body" },
    embed.author && el("div", { class: "e-author" }, embed.author.name),
    embed.title && richText(embed.title, "e-title"),
    embed.description && richText(embed.description, "e-desc"),
    embed.fields && embed.fields.length > 0 && el("div", { class: "e-fields" },
      embed.fields.map((f) => el("div", { class: f.inline ? "e-field inline" : "e-field" },
        richText(f.name, "fname"), richText(f.value, "fvalue")))),
    image && el("div", { class: "e-image" }, el("img", { src: image, alt: "picture" })),
    (embed.footer || embed.timestamp) && el("div", { class: "e-footer" },
      embed.footer ? embed.footer.text : "",
      embed.timestamp ? ` • ${new Date(embed.timestamp).toLocaleString()}` : ""));
  const node = el("div", { class: "embed" }, body,
    thumb && el("div", { class: "e-thumb" }, el("img", { src: thumb, alt: "thumbnail" })));
  if (color) node.style.borderLeftColor = color;
  return node;
}

function buttonNode(message, c) {
  const label = [c.emoji && c.emoji.name ? `${c.emoji.name} ` : "", c.label || ""].join("");
  if (c.style === 5) {
    return el("a", { class: "btn s5", href: c.url, target: "_blank", rel: "noopener noreferrer" },
      `${label} ↗`);
  }
  return el("button", {
    class: `btn s${c.style || 2}`, disabled: !!c.disabled,
    dataset: { customId: c.custom_id, label: c.label || "" },
    onclick: () => act({ kind: "click", message: message.id, custom_id: c.custom_id }),
  }, label);
}

function selectOptions(c) {
  const view = state.view;
  if (c.type === STRING_SELECT) return c.options || [];
  if (c.type === USER_SELECT) {
    return state.players.map((p) => ({ label: p.name, value: p.id }));
  }
  if (c.type === CHANNEL_SELECT) {
    return view.channels.map((ch) => ({ label: `#${ch.name}`, value: ch.id }));
  }
  return [];
}

function selectNode(message, c) {
  const options = selectOptions(c);
  const low = c.min_values ?? 1, high = c.max_values ?? 1;
  const choose = (values) => act({ kind: "select", message: message.id, custom_id: c.custom_id,
    values });
  if (high === 1 && low === 1) {
    const select = el("select", {
      class: "sel", disabled: !!c.disabled, dataset: { customId: c.custom_id },
      onchange: (event) => choose([event.target.value]),
    }, el("option", { value: "", disabled: true, selected: true }, c.placeholder || "Make a selection"),
    options.map((o) => el("option", { value: o.value, title: o.description || null },
      `${o.emoji && o.emoji.name ? `${o.emoji.name} ` : ""}${o.label}`)));
    return select;
  }
  const boxes = options.map((o) => el("label", {},
    el("input", { type: "checkbox", value: o.value, checked: !!o.default }), ` ${o.label}`));
  const node = el("div", { class: "multi", dataset: { customId: c.custom_id } },
    el("div", { class: "placeholder" }, c.placeholder || `Choose ${low} to ${high}`), boxes,
    el("button", {
      class: "btn s1", type: "button", disabled: !!c.disabled,
      onclick: () => {
        const values = [...node.querySelectorAll("input:checked")].map((i) => i.value);
        if (values.length < low || values.length > high) {
          toast(`Choose ${low === high ? low : `${low} to ${high}`} options.`);
          return;
        }
        choose(values);
      },
    }, "Choose"));
  return node;
}

function componentNodes(message, components) {
  const nodes = [];
  for (const c of components || []) {
    if (c.type === ACTION_ROW) {
      nodes.push(el("div", { class: "row" }, c.components.map((inner) =>
        inner.type === BUTTON ? buttonNode(message, inner) : selectNode(message, inner))));
    } else if (c.type === BUTTON) nodes.push(buttonNode(message, c));
    else if ([STRING_SELECT, USER_SELECT, CHANNEL_SELECT].includes(c.type)) {
      nodes.push(selectNode(message, c));
    } else if (c.type === TEXT_DISPLAY) nodes.push(richText(c.content));
    else if (c.type === SECTION) {
      nodes.push(el("div", { class: "section" }, componentNodes(message, c.components),
        c.accessory && componentNodes(message, [c.accessory])));
    } else if (c.type === CONTAINER) {
      const box = el("div", { class: "v2" }, componentNodes(message, c.components));
      if (c.accent_color !== undefined && c.accent_color !== null) {
        box.style.borderLeftColor = `#${c.accent_color.toString(16).padStart(6, "0")}`;
      }
      nodes.push(box);
    } else if (c.type === SEPARATOR) nodes.push(el("div", { class: "sep" }));
    else if (c.type === THUMBNAIL) {
      nodes.push(el("img", { src: attachmentUrl(message, c.media.url), class: "thumb" }));
    } else if (c.type === MEDIA_GALLERY) {
      nodes.push(el("div", { class: "attach" }, c.items.map((item) =>
        el("img", { src: attachmentUrl(message, item.media.url), alt: item.description || "" }))));
    }
  }
  return nodes;
}

// The media a Components V2 card shows (gallery items, thumbnails): its attachments are drawn
// there, not again below the message.
function cardMedia(components) {
  const urls = [];
  for (const c of components || []) {
    if (c.type === THUMBNAIL && c.media) urls.push(c.media.url);
    for (const item of c.items || []) if (item.media) urls.push(item.media.url);
    urls.push(...cardMedia(c.components));
    if (c.accessory) urls.push(...cardMedia([c.accessory]));
  }
  return urls;
}

function messageNode(message) {
  const view = state.view;
  const mentioned = message.mentions.includes(state.me);
  const initials = message.author.slice(0, 1).toUpperCase();
  const embedded = new Set([...message.embeds.flatMap((e) =>
    [e.image && e.image.url, e.thumbnail && e.thumbnail.url].filter(Boolean)),
  ...cardMedia(message.components)]);
  // A Components V2 message shows its files only where a component names them.
  const loose = message.flags & COMPONENTS_V2 ? []
    : message.attachments.filter((a) => !embedded.has(`attachment://${a.filename}`));
  const when = new Date(message.timestamp);
  const node = el("div", {
    class: ["msg", mentioned && "mentioned", message.ephemeral && "ephemeral"]
      .filter(Boolean).join(" "),
    dataset: { id: message.id },
  },
  message.used && el("div", { class: "used" }, el("b", {}, message.used.user),
    " used ", el("b", {}, `/${message.used.command}`)),
  el("div", { class: message.bot ? "avatar" : "avatar person" }, initials),
  el("div", { class: "head" }, el("span", { class: "name" }, message.author),
    message.bot && el("span", { class: "tag" }, "APP"),
    el("span", { class: "time", title: when.toString() }, when.toLocaleTimeString())),
  message.loading ? el("div", { class: "loading" }, `${message.author} is thinking…`)
    : message.content && richText(message.content),
  message.edited && !message.loading && el("span", { class: "edited" }, "(edited)"),
  message.embeds.map((e) => embedNode(message, e)),
  loose.length > 0 && el("div", { class: "attach" }, loose.map((a) =>
    (a.content_type || "").startsWith("image/") ? el("img", { src: a.url, alt: a.filename })
      : el("a", { href: a.url, download: a.filename }, a.filename))),
  componentNodes(message, message.components),
  message.ephemeral && el("div", { class: "eph" }, "👁 Only you can see this • ",
    el("a", { onclick: () => { state.dismissed.add(message.id); draw(); } }, "Dismiss message")));
  return node;
}

// --- the page ------------------------------------------------------------------------------------

function drawPlayers() {
  const nav = $("players");
  nav.replaceChildren("Act as:", ...state.players.map((p) => el("button", {
    class: p.id === state.me ? "me" : "", dataset: { player: p.name },
    onclick: () => switchTo(p.id),
  }, p.name)));
}

function drawChannels(view) {
  $("guild").textContent = view.guild;
  $("channels").replaceChildren(...view.channels.map((c) => el("li", {
    class: [c.id === state.channel && "current", c.thread && "thread", c.archived && "archived"]
      .filter(Boolean).join(" "),
    dataset: { channel: c.name },
    onclick: () => { state.channel = c.id; restart(); },
  }, c.thread ? `🧵 ${c.name}` : `# ${c.name}`, c.archived ? " (archived)" : "")));
  const current = view.channels.find((c) => c.id === state.channel);
  $("channel-title").textContent = current ? `${current.thread ? "🧵" : "#"} ${current.name}` : "";
}

function drawViolations(view) {
  const box = $("violations");
  box.hidden = view.violations.length === 0;
  box.replaceChildren(el("h4", {}, `⚠ The bot broke Discord's specification ${view.violations.length} time(s): Discord answers these requests 400`),
    ...view.violations.slice(-5).map((v) => el("div", {}, el("code", {}, v))));
}

function drawOnChange(part, key, drawing) {
  if (state.keys[part] !== key) { state.keys[part] = key; drawing(); }
}

function draw() {
  const view = state.view;
  if (!view) return;
  drawOnChange("players", state.me, drawPlayers);
  drawOnChange("channels", JSON.stringify([view.channels, state.channel, view.guild]),
    () => drawChannels(view));
  drawOnChange("violations", JSON.stringify(view.violations), () => drawViolations(view));
  const box = $("messages");
  const keep = new Map();
  const nodes = [];
  for (const message of view.messages) {
    if (state.dismissed.has(message.id)) continue;
    const key = JSON.stringify(message) + state.me;
    const old = state.drawn.get(message.id);
    const node = old && old.key === key ? old.node : messageNode(message);
    keep.set(message.id, { key, node });
    nodes.push(node);
  }
  state.drawn = keep;
  // Nodes already in place stay (a select being opened or a button being clicked is kept).
  nodes.forEach((node, index) => {
    if (box.children[index] !== node) box.insertBefore(node, box.children[index] || null);
  });
  while (box.children.length > nodes.length) box.lastChild.remove();
  stickToBottom();
}

function stickToBottom() {
  // Like Discord: a reader at the newest message stays there as messages and pictures come.
  if (state.atBottom) $("messages").scrollTop = $("messages").scrollHeight;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

async function post(body) {
  const answer = await fetch("/api/act", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: state.me, ...body }) });
  return answer.json();
}

async function act(body) {
  const answer = await post(body);
  if (!answer.ok) toast(`This interaction failed: ${answer.error}`);
  else if (answer.modal) showModal(answer.modal, answer.interaction);
  return answer;
}

function showModal(modal, interaction) {
  const form = $("modal-form");
  const inputs = [];
  const walk = (components, label) => {
    for (const c of components || []) {
      if (c.type === ACTION_ROW) walk(c.components, label);
      else if (c.type === LABEL) walk([c.component], c.label);
      else if (c.type === TEXT_INPUT) {
        const field = c.style === 2
          ? el("textarea", { rows: 4, maxlength: c.max_length, placeholder: c.placeholder })
          : el("input", { maxlength: c.max_length, placeholder: c.placeholder, value: c.value });
        if (c.style === 2 && c.value) field.value = c.value;
        field.required = c.required !== false;
        field.dataset.customId = c.custom_id;
        inputs.push(field);
        form.append(el("label", {}, label || c.label || c.custom_id), field);
      }
    }
  };
  form.replaceChildren(el("h3", {}, modal.title || ""));
  walk(modal.components);
  const dialog = $("modal");
  form.append(el("div", { class: "actions" },
    el("button", { type: "button", class: "btn s2", onclick: () => dialog.close() }, "Cancel"),
    el("button", { type: "submit", class: "btn s1" }, "Submit")));
  form.onsubmit = (event) => {
    event.preventDefault();
    const values = Object.fromEntries(inputs.map((i) => [i.dataset.customId, i.value]));
    dialog.close();
    act({ kind: "modal", interaction, values });
  };
  dialog.showModal();
}

// --- slash commands --------------------------------------------------------------------------

function commandPaths() {
  // Every invocable "/name sub" with its options, from the commands the bot synced.
  const paths = [];
  const visit = (prefix, options, description) => {
    const subs = (options || []).filter((o) => o.type === SUB_COMMAND || o.type === SUB_GROUP);
    if (subs.length === 0) paths.push({ path: prefix, description, params: options || [] });
    for (const sub of subs) visit(`${prefix} ${sub.name}`, sub.options, sub.description);
  };
  for (const command of (state.view ? state.view.commands : [])) {
    if (command.type === 1) visit(command.name, command.options, command.description);
  }
  return paths.sort((a, b) => a.path.localeCompare(b.path));
}

function suggest() {
  const text = $("entry").value;
  const box = $("suggestions");
  if (!text.startsWith("/") || state.command) { box.hidden = true; return; }
  const typed = text.slice(1).trim().toLowerCase();
  const found = commandPaths().filter((c) => c.path.startsWith(typed) || typed.startsWith(c.path));
  box.replaceChildren(...found.slice(0, 25).map((c) => el("div", {
    dataset: { path: c.path }, onclick: () => chooseCommand(c),
  }, `/${c.path}`, el("small", {}, c.description || ""))));
  box.hidden = found.length === 0;
}

function optionField(command, param) {
  const name = param.name;
  let field;
  if (param.choices && param.choices.length) {
    field = el("select", {}, el("option", { value: "" }, ""),
      param.choices.map((c) => el("option", { value: String(c.value) }, c.name)));
  } else if (param.type === BOOLEAN) {
    field = el("select", {}, el("option", { value: "" }, ""), el("option", { value: "true" }, "True"),
      el("option", { value: "false" }, "False"));
  } else if (param.type === USER) {
    field = el("select", {}, el("option", { value: "" }, ""),
      state.players.map((p) => el("option", { value: p.id }, p.name)));
  } else if (param.type === CHANNEL) {
    field = el("select", {}, el("option", { value: "" }, ""),
      state.view.channels.map((c) => el("option", { value: c.id }, `#${c.name}`)));
  } else {
    const list = `ac-${name}`;
    field = el("input", {
      type: [INTEGER, NUMBER].includes(param.type) ? "number" : "text",
      min: param.min_value, max: param.max_value, maxlength: param.max_length,
      list: param.autocomplete ? list : null, size: 10,
    });
    if (param.autocomplete) {
      const datalist = el("datalist", { id: list });
      field.addEventListener("input", () => autocomplete(command, name, field, datalist));
      field.addEventListener("focus", () => autocomplete(command, name, field, datalist));
      return el("label", { class: param.required ? "req" : "", dataset: { option: name } },
        el("span", {}, name), field, datalist);
    }
  }
  return el("label", { class: param.required ? "req" : "", title: param.description || "",
    dataset: { option: name } }, el("span", {}, name), field);
}

async function autocomplete(command, focused, field, datalist) {
  const answer = await post({ kind: "autocomplete", channel: state.channel, command: command.path,
    focused, options: { ...optionValues(), [focused]: field.value } });
  if (!answer.ok) return;
  datalist.replaceChildren(...answer.choices.map((c) =>
    el("option", { value: String(c.value) }, c.name)));
}

function chooseCommand(command) {
  state.command = command;
  $("entry").value = `/${command.path} `;
  $("suggestions").hidden = true;
  $("options").replaceChildren(...command.params.map((p) => optionField(command, p)));
  $("entry").focus();
}

function optionValues() {
  const values = {};
  for (const label of $("options").querySelectorAll("label[data-option]")) {
    const field = label.querySelector("input, select");
    if (field && field.value !== "") values[label.dataset.option] = field.value;
  }
  return values;
}

function clearComposer() {
  state.command = null;
  $("entry").value = "";
  $("options").replaceChildren();
  $("suggestions").hidden = true;
}

async function send(event) {
  event.preventDefault();
  const text = $("entry").value.trim();
  if (!text) return;
  if (text.startsWith("/")) {
    const typed = text.slice(1).trim();
    const command = state.command || commandPaths().find((c) => c.path === typed);
    if (!command) { toast(`There is no command /${typed}.`); return; }
    const missing = command.params.filter((p) => p.required && !(p.name in optionValues()));
    if (missing.length) { toast(`Fill in ${missing.map((p) => p.name).join(", ")}.`); return; }
    const options = optionValues();
    clearComposer();
    await act({ kind: "slash", channel: state.channel, command: command.path, options });
  } else {
    clearComposer();
    await act({ kind: "say", channel: state.channel, content: text });
  }
}

// --- polling -------------------------------------------------------------------------------------

async function poll(generation) {
  while (generation === state.polling) {
    try {
      const query = new URLSearchParams({ user: state.me, channel: state.channel,
        since: String(state.changes) });
      const answer = await fetch(`/api/view?${query}`);
      if (generation !== state.polling) return;
      const view = await answer.json();
      state.view = view;
      state.changes = view.changes;
      draw();
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function restart() {
  state.polling += 1;
  state.changes = -1;
  state.drawn = new Map();
  state.keys = {};
  state.atBottom = true;
  const player = state.players.find((p) => p.id === state.me);
  const url = new URL(location.href);
  url.searchParams.set("as", player ? player.name : "");
  history.replaceState(null, "", url);
  poll(state.polling);
}

function switchTo(id) {
  state.me = id;
  clearComposer();
  restart();
}

async function start() {
  const answer = await (await fetch("/api/players")).json();
  state.players = answer.players;
  const wanted = new URL(location.href).searchParams.get("as");
  const player = state.players.find((p) => p.name === wanted) || state.players[0];
  state.me = player.id;
  state.channel = answer.channel;
  $("composer").addEventListener("submit", send);
  const box = $("messages");
  box.addEventListener("scroll", () => {
    state.atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  });
  box.addEventListener("load", stickToBottom, true);  // a picture arrived: keep the bottom
  $("entry").addEventListener("input", () => {
    if (state.command && !$("entry").value.startsWith(`/${state.command.path}`)) {
      state.command = null;
      $("options").replaceChildren();
    }
    suggest();
  });
  $("messages").addEventListener("click", (event) => {
    const target = event.target;
    if (target.classList.contains("spoiler")) target.classList.toggle("open");
    if (target.dataset.channel) { state.channel = target.dataset.channel; restart(); }
    if (target.dataset.command) {
      const command = commandPaths().find((c) => c.path === target.dataset.command);
      if (command) chooseCommand(command);
    }
  });
  restart();
}

start();
