// The console's router: the hash names the screen (#tables, #table/T,
// #vector/T/I, #items/T, #query/T, #partiql, #streams/T, #ttl/T, #capacity, #model,
// #workbench, #credentials).

import { h, fill, errorBox } from "./dom.js";
import { tablesView, tableView } from "./tables.js";
import { itemsView } from "./items.js";
import { queryView, partiqlView } from "./query.js";
import { streamsView, ttlView } from "./streams.js";
import { capacityView, startRecording } from "./capacity.js";
import { modelView } from "./model.js";
import { workbenchView } from "./workbench.js";
import { credentialsView, showState } from "./auth.js";
import { loadServerInfo } from "./api.js";
import { vectorView } from "./vectors.js";

const view = document.getElementById("view");
let leaving = [];

function onLeave(fn) {
  leaving.push(fn);
}

function nav(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

async function route() {
  for (const fn of leaving) fn();
  leaving = [];
  const [screen, ...rest] = (location.hash.slice(1) || "tables").split("/");
  const arg = decodeURIComponent(rest.join("/"));
  for (const a of document.querySelectorAll("header a[data-screen]")) {
    a.classList.toggle("active", a.dataset.screen === screen);
  }
  // A fresh container per screen, so a screen still loading cannot draw
  // over the next.
  const root = h("section", { "data-screen": screen });
  fill(view, root);
  view.setAttribute("aria-busy", "true");
  try {
    switch (screen) {
      case "tables": await tablesView(root, nav); break;
      case "table": await tableView(root, arg, nav, onLeave); break;
      case "vector": await vectorView(root, decodeURIComponent(rest[0] || ""), decodeURIComponent(rest.slice(1).join("/"))); break;
      case "items": await itemsView(root, arg); break;
      case "query": await queryView(root, arg, nav); break;
      case "partiql": await partiqlView(root); break;
      case "streams": await streamsView(root, arg, onLeave); break;
      case "ttl": await ttlView(root, arg); break;
      case "capacity": await capacityView(root, onLeave); break;
      case "model": modelView(root); break;
      case "workbench": await workbenchView(root); break;
      case "credentials": credentialsView(root); break;
      default: fill(root, h("p", {}, `No screen ${screen}.`));
    }
  } catch (e) {
    root.append(errorBox(e));
  } finally {
    view.setAttribute("aria-busy", "false");
  }
}

startRecording();
showState();
window.addEventListener("hashchange", route);
// What the server is (signatures, namespaces) words the page's hints:
// known before the first screen is drawn.
loadServerInfo().then(showState, showState).finally(route);
