/// The gallery's style sheet and its one script, served from `/static/`: the pages carry neither inline.
enum GalleryAssets {
    static let css = """
    :root { color-scheme: dark; --ground: #15171b; --card: #1e2127; --line: #2b3039; --text: #e6e6e6; --dim: #9aa0a6; --accent: #e2b340; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--ground); color: var(--text); }
    a { color: #8ab4f8; }
    .bar { display: flex; align-items: baseline; gap: 28px; padding: 14px 28px; border-bottom: 1px solid var(--line); }
    .brand { font-size: 22px; font-weight: 700; color: #fff; text-decoration: none; letter-spacing: -0.01em; }
    .brand span { color: #888; }
    .bar nav a { color: var(--dim); text-decoration: none; margin-right: 18px; }
    .bar nav a[aria-current] { color: #fff; border-bottom: 2px solid var(--accent); }
    .notice { margin: 0; padding: 8px 28px; background: #3a2f12; color: #f3d37a; }
    .filters { display: flex; flex-wrap: wrap; align-items: center; gap: 10px 16px; padding: 14px 28px; font-size: 13px; color: var(--dim); }
    .filters input, .filters select, .filters button { font: inherit; background: var(--card); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; }
    .filters button { background: #2d5bd7; border-color: #2d5bd7; color: #fff; padding: 3px 14px; cursor: pointer; }
    .picker { width: 32px; height: 26px; padding: 0 2px; }
    .swatches { display: flex; gap: 6px; }
    .swatch { width: 22px; height: 22px; border-radius: 50%; border: 2px solid var(--line); display: inline-block; }
    .swatch.selected { border-color: #fff; box-shadow: 0 0 0 2px var(--accent); }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 10px; padding: 6px 28px 18px; }
    .cell { display: block; background: var(--card); border-radius: 8px; overflow: hidden; text-decoration: none; color: var(--dim); }
    .cell a { display: block; }
    .caption input { vertical-align: -2px; margin: 0 4px 0 0; }
    form.pick { padding: 0 28px 8px; }
    form.pick button { font: inherit; font-size: 13px; background: var(--card); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 3px 10px; cursor: pointer; }
    .cell img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; display: block; background: #101114; }
    .caption { display: block; padding: 4px 8px; font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px; vertical-align: -1px; }
    .pages { display: flex; gap: 18px; justify-content: center; padding: 8px 0 36px; color: var(--dim); }
    .pages .api { margin-left: 30px; }
    .empty { color: var(--dim); padding: 0 28px; }
    .hint { color: var(--dim); }
    main.photo, main.inspiration, main.error { padding: 10px 28px 48px; max-width: 1500px; }
    h1 { font-size: 26px; margin: 8px 0 2px; overflow-wrap: anywhere; }
    h2 { font-size: 16px; margin: 22px 0 8px; color: #cdd3da; }
    .path { color: var(--dim); margin: 0 0 14px; overflow-wrap: anywhere; font-size: 13px; }
    .pictures { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; }
    figure { margin: 0; }
    figure img { width: 100%; max-height: 70vh; object-fit: contain; background: #101114; border-radius: 8px; display: block; }
    figcaption { font-size: 12px; color: var(--dim); text-align: center; margin-top: 4px; text-transform: uppercase; letter-spacing: .08em; }
    .palette { display: flex; height: 18px; border-radius: 6px; overflow: hidden; margin: 6px 0; max-width: 720px; }
    .shares { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; }
    .hex { color: var(--dim); font-family: ui-monospace, monospace; font-size: 12px; }
    dl { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; font-size: 13px; }
    dl div { display: flex; gap: 6px; }
    dt { color: #7d8590; }
    dd { margin: 0; overflow-wrap: anywhere; }
    .tags { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); }
    .candidates { padding-left: 22px; font-size: 14px; }
    .candidates li { margin-bottom: 6px; }
    .candidates .chosen strong { color: var(--accent); }
    .why { color: var(--dim); font-size: 12px; }
    .splash-controls, form.make { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 18px; margin: 12px 0; font-size: 13px; color: var(--dim); }
    .splash-controls input[type=range] { width: 140px; vertical-align: middle; }
    .splash-controls output { display: inline-block; min-width: 2.2em; text-align: right; color: var(--text); }
    .splash-controls select, .splash-controls button, form.make button { font: inherit; background: var(--card); color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; }
    form.make button { background: #2d5bd7; border-color: #2d5bd7; color: #fff; cursor: pointer; }
    .made { font-size: 13px; color: var(--dim); list-style: none; padding: 0; }
    form.choose { display: inline; margin-left: 10px; }
    form.choose button { font: inherit; font-size: 12px; background: var(--line); color: var(--text); border: 1px solid #3b4250; border-radius: 999px; padding: 1px 10px; cursor: pointer; }
    form.choose button:hover { border-color: var(--accent); }
    details { margin: 10px 0; font-size: 13px; }
    pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); padding: 10px; border-radius: 6px; }
    .entries { list-style: none; padding: 0; display: grid; gap: 14px; }
    .entries li { display: flex; gap: 16px; background: var(--card); border-radius: 10px; padding: 12px; }
    .entries img { width: 200px; height: 150px; object-fit: cover; border-radius: 6px; display: block; }
    .entries .head { margin: 0; font-size: 16px; overflow-wrap: anywhere; }
    .entries li > div { min-width: 0; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .rank { font-weight: 700; }
    .score { background: var(--line); padding: 1px 10px; border-radius: 999px; font-size: 13px; margin-left: 8px; }
    .reason { color: #cdd3da; margin: 4px 0 8px; }
    .alike { font-size: 13px; color: var(--dim); margin: 8px 0 0; }
    .alike img { width: 72px; height: 54px; display: inline-block; vertical-align: middle; margin-left: 4px; }
    @media (max-width: 700px) { .bar, .filters, .grid, main.photo, main.inspiration { padding-left: 12px; padding-right: 12px; } .entries li { flex-direction: column; }
      .grid { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; }
      .pictures { grid-template-columns: repeat(2, 1fr); gap: 8px; }
      .splash-controls { position: sticky; bottom: 0; background: var(--ground); padding: 8px 0; margin: 0; border-top: 1px solid var(--line); z-index: 1; } }
    """

    /// The tab's icon: a grey disc with one red dot, a show picture in small.
    static let icon = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#6b6f76"/>\
    <circle cx="20" cy="13" r="6" fill="#d0312d"/></svg>
    """

    /// Small conveniences; every page works without it: the colour picker fills the colour field, and
    /// a changed filter shows its photos at once.
    static let javaScript = """
    "use strict";
    // The photo page's controls redraw the show and hide pictures as they move (the server renders each
    // from its working copy), and carry the same parameters into "Make variants" and the address.
    function liveSplash(controls) {
      if (!controls) return;
      const make = document.querySelector("form.make");
      let timer = null;
      const update = () => {
        const parameters = new URLSearchParams(new FormData(controls));
        for (const output of controls.querySelectorAll("output")) {
          output.value = output.previousElementSibling.value;
        }
        for (const image of document.querySelectorAll("img[data-splash]")) {
          image.src = `/photos/${controls.dataset.photo}/splash/${image.dataset.splash}?${parameters}`;
        }
        if (make) {
          for (const [name, value] of parameters) make.elements[name].value = value;
        }
        history.replaceState(null, "", `?${parameters}`);
      };
      controls.addEventListener("input", () => {
        clearTimeout(timer);
        // With no picture on the page to redraw (these settings splash nothing), the page is asked for with
        // the new ones, once the controls rest: another candidate may have a picture to show.
        timer = document.querySelector("img[data-splash]") ? setTimeout(update, 120) : setTimeout(() => controls.submit(), 400);
      });
      controls.addEventListener("submit", (event) => {
        // With no picture on the page to redraw (the accent has nothing to splash), the page itself is asked for.
        if (!document.querySelector("img[data-splash]")) return;
        event.preventDefault();
        update();
      });
    }

    document.addEventListener("DOMContentLoaded", () => {
      liveSplash(document.querySelector("form.splash-controls"));
      const form = document.querySelector("form.filters");
      if (!form) return;
      for (const picker of form.querySelectorAll("input[type=color][data-fills]")) {
        picker.addEventListener("change", () => {
          form.elements[picker.dataset.fills].value = picker.value;
          form.requestSubmit();
        });
      }
      for (const field of form.querySelectorAll("select, input[type=checkbox]")) {
        field.addEventListener("change", () => {
          // Closest to the colour, and the colour as the accent, need a colour: asked for first, not
          // refused by the server.
          const needsColour = (field.name === "sort" && field.value === "colour") || (field.name === "accent" && field.checked);
          if (needsColour && !form.elements.colour.value) {
            form.elements.colour.focus();
            return;
          }
          form.requestSubmit();
        });
      }
      // Sent without a colour, what only a colour gives a meaning is left out, not refused.
      form.addEventListener("submit", () => {
        if (form.elements.colour.value) return;
        form.elements.accent.checked = false;
        form.elements.coverage.value = "";
        if (form.elements.sort.value === "colour") form.elements.sort.value = "";
      });
      // A date being typed is a date at every key ("0002-06-15" after the year's first digit): sent
      // once its year is one a photo can have, or when it is cleared.
      for (const field of form.querySelectorAll("input[type=date]")) {
        field.addEventListener("change", () => {
          if (field.value === "" || Number(field.value.slice(0, 4)) >= 1826) form.requestSubmit();
        });
      }
      // Empty fields stay out of the address, so that every view has one short URL.
      form.addEventListener("formdata", (event) => {
        for (const [name, value] of [...event.formData.entries()]) {
          if (value === "") event.formData.delete(name);
        }
      });
    });
    """
}
