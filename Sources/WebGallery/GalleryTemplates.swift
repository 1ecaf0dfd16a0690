/// The gallery's Mustache templates: `head` and `foot` frame every page.
enum GalleryTemplates {
    static let all: [(String, String)] = [("head", head), ("foot", foot), ("grid", grid), ("photo", photo),
                                          ("inspiration", inspiration), ("error", error), ("partialDownload", partialDownload)]

    static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}} · showhide</title>
    <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/static/gallery.css">
    <script src="/static/gallery.js" defer></script>
    </head>
    <body>
    <header class="bar">
    <a class="brand" href="/">show<span>hide</span></a>
    <nav><a href="/"{{#onPhotos}} aria-current="page"{{/onPhotos}}>Photos</a><a href="/inspire"{{#onInspiration}} aria-current="page"{{/onInspiration}}>Inspiration</a></nav>
    </header>
    {{#readOnly}}<p class="notice">This catalogue is read-only: the gallery shows it and changes nothing.</p>{{/readOnly}}

    """

    static let foot = """
    </body>
    </html>

    """

    static let grid = """
    {{> head}}
    <h1 class="visually-hidden">Photos</h1>
    <form class="filters" method="get" action="/">
    <div class="swatches" role="group" aria-label="colours">{{#swatches}}<a class="swatch{{#selected}} selected{{/selected}}" href="{{href}}" style="background: {{hex}}" title="{{name}}" aria-label="{{name}}" data-colour="{{name}}"{{#selected}} aria-current="true"{{/selected}}></a>{{/swatches}}</div>
    <label>colour <input type="text" name="colour" value="{{colourText}}" placeholder="red, #1f5aa6" size="10"></label>
    <input type="color" class="picker" value="{{pickerValue}}" aria-label="pick a colour" data-fills="colour">
    <label><input type="checkbox" name="accent" value="on"{{#accentOnly}} checked{{/accentOnly}}> as the accent</label>
    <label>at least <input type="number" name="coverage" min="0" max="100" step="1" value="{{coverage}}" size="3">%</label>
    <label>from <input type="date" name="since" value="{{since}}"></label>
    <label>to <input type="date" name="until" value="{{until}}"></label>
    <label>camera <input type="text" name="camera" value="{{camera}}" size="10"></label>
    <label>folder <input type="text" name="folder" value="{{folder}}" placeholder="/home/me/Pictures" size="16"></label>
    <label>sort <select name="sort">{{#sorts}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/sorts}}</select></label>
    <button type="submit">Show</button>
    <a class="clear" href="/">clear</a>
    </form>
    {{#canExport}}<form id="pick" class="pick" method="post" action="/export"><button type="submit">Download the ticked photos' show pictures (.zip)</button></form>{{/canExport}}
    <main class="grid">
    {{#items}}<div class="cell"><a href="/photos/{{id}}" data-photo="{{id}}"><img src="/photos/{{id}}/thumbnail" alt="{{name}}" loading="lazy"></a><span class="caption">{{#canExport}}<input type="checkbox" name="id" value="{{id}}" form="pick" aria-label="tick {{name}}"> {{/canExport}}{{#dotHex}}<span class="dot" style="background: {{dotHex}}"></span>{{/dotHex}}{{caption}}{{#score}} · {{score}}{{/score}}</span></div>
    {{/items}}
    </main>
    {{#empty}}<p class="empty">{{empty}}{{#firstPage}} <a href="{{firstPage}}">The first page</a>.{{/firstPage}}</p>{{/empty}}
    <nav class="pages">{{#previous}}<a href="{{previous}}" rel="prev">← previous</a>{{/previous}}<span>page {{page}}</span>{{#next}}<a href="{{next}}" rel="next">next →</a>{{/next}}<a class="api" href="{{apiHref}}">JSON</a></nav>
    {{> foot}}
    """

    static let photo = """
    {{> head}}
    <main class="photo">
    <h1>{{name}}</h1>
    <p class="path"><a href="/photos/{{id}}/original">{{path}}</a>{{#duplicates}}<br>also at {{.}}{{/duplicates}}</p>
    {{#fileNote}}<p class="hint">{{fileNote}}</p>{{/fileNote}}
    <div class="pictures">
    {{#fileThere}}<figure><img src="/photos/{{id}}/preview" alt="{{name}}"><figcaption>original</figcaption></figure>{{/fileThere}}
    {{#splashable}}<figure><img src="/photos/{{id}}/splash/show{{splashQuery}}" alt="{{name}}, show" data-splash="show"><figcaption>show</figcaption></figure>
    <figure><img src="/photos/{{id}}/splash/hide{{splashQuery}}" alt="{{name}}, hide" data-splash="hide"><figcaption>hide</figcaption></figure>{{/splashable}}
    </div>
    {{#fileThere}}{{^splashable}}<p class="hint">Nothing to splash with these settings: {{nothingToSplash}}.{{#hasCandidates}} Choose a candidate to keep below.{{/hasCandidates}}</p>{{/splashable}}{{/fileThere}}
    <form class="splash-controls" method="get" action="/photos/{{id}}" data-photo="{{id}}">
    <label>keep <select name="candidate">{{#targets}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/targets}}</select></label>
    <label>mode <select name="mode">{{#modes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/modes}}</select></label>
    <label>tolerance <input type="range" name="tolerance" min="0" max="{{degreesMax}}" step="1" value="{{tolerance}}"><output>{{tolerance}}</output>°</label>
    <label>feather <input type="range" name="feather" min="0" max="{{degreesMax}}" step="1" value="{{feather}}"><output>{{feather}}</output>°</label>
    <label>min chroma <input type="range" name="minChroma" min="0" max="{{chromaMax}}" step="1" value="{{minChroma}}"><output>{{minChroma}}</output></label>
    <button type="submit">Preview</button>
    </form>
    {{#canMakeVariants}}<form class="make" method="post" action="/photos/{{id}}/variants">
    <input type="hidden" name="candidate" value="{{candidate}}"><input type="hidden" name="mode" value="{{mode}}"><input type="hidden" name="tolerance" value="{{tolerance}}"><input type="hidden" name="feather" value="{{feather}}"><input type="hidden" name="minChroma" value="{{minChroma}}">
    <button type="submit">Make variants</button> <span class="hint">full size, into the library, as <code>gallery process</code> does</span></form>{{/canMakeVariants}}
    {{#noVariants}}<p class="hint">No show and hide variants made yet{{#readOnly}}: <code>showhide gallery process {{id}}</code> makes them{{/readOnly}}.</p>{{/noVariants}}
    {{^noVariants}}<ul class="made">{{#madeSets}}<li>Made, {{label}}: {{#show}}<a href="{{show}}">show</a> {{/show}}{{#hide}}<a href="{{hide}}">hide</a>{{/hide}}{{#newest}} (the newest){{/newest}}</li>{{/madeSets}}</ul>{{/noVariants}}
    {{#unanalysed}}<p class="hint">Its colours are not analysed yet: <code>showhide gallery analyse</code> finds them.</p>{{/unanalysed}}
    <section class="colours">
    {{#hasPalette}}<h2>Palette</h2>{{/hasPalette}}
    <div class="palette">{{#palette}}<span style="background: {{hex}}; flex: {{flex}}" title="{{name}} {{percent}}"></span>{{/palette}}</div>
    <ul class="shares">{{#palette}}<li><span class="dot" style="background: {{hex}}"></span>{{name}} <span class="hex">{{hex}}</span> {{percent}}</li>{{/palette}}</ul>
    <dl class="summary">
    {{#dominant}}<div><dt>dominant</dt><dd><span class="dot" style="background: {{hex}}"></span>{{name}} <span class="hex">{{hex}}</span></dd></div>{{/dominant}}
    {{#accent}}<div><dt>accent</dt><dd><span class="dot" style="background: {{hex}}"></span>{{name}} <span class="hex">{{hex}}</span> {{percent}}{{#subjectChosen}} · chosen by you{{/subjectChosen}}</dd></div>{{/accent}}
    {{#scene}}<div><dt>scene</dt><dd>{{scene}}: no accent worth a splash</dd></div>{{/scene}}
    {{#noColourStandsOut}}<div><dt>accent</dt><dd>none: no colour stands out</dd></div>{{/noColourStandsOut}}
    </dl>
    {{#hasCandidates}}<h2>Accent candidates</h2>{{/hasCandidates}}
    <ol class="candidates">{{#candidates}}<li{{#isAccent}} class="chosen"{{/isAccent}}><span class="dot" style="background: {{hex}}"></span><strong>{{name}}</strong> <span class="hex">{{hex}}</span>{{#isAccent}} · the accent{{/isAccent}}
    {{^isAccent}}{{^readOnly}}<form method="post" action="/photos/{{id}}/subject" class="choose"><input type="hidden" name="candidate" value="{{rank}}"><button type="submit">make this the subject</button></form>{{/readOnly}}{{/isAccent}}
    <br><span class="why">{{why}}</span></li>{{/candidates}}</ol>
    {{#subjectChosen}}{{^readOnly}}<form method="post" action="/photos/{{id}}/subject" class="choose"><input type="hidden" name="candidate" value="eye"><button type="submit">let the eye choose again</button></form>{{/readOnly}}{{/subjectChosen}}
    </section>
    <section class="exif">
    <h2>Camera</h2>
    <dl>{{#facts}}<div><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/facts}}</dl>
    {{#hasTags}}<details><summary>Every EXIF tag</summary><dl class="tags">{{#tags}}<div><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/tags}}</dl></details>{{/hasTags}}
    {{#xmp}}<details><summary>XMP</summary><pre>{{xmp}}</pre></details>{{/xmp}}
    <p><a href="/photos/{{id}}/original">The original file</a> · <a href="/api/photos/{{id}}">JSON</a></p>
    </section>
    </main>
    {{> foot}}
    """

    static let inspiration = """
    {{> head}}
    <main class="inspiration">
    <h1>Inspiration</h1>
    <p class="lead">The photos whose show and hide pictures would stand out most, best first.</p>
    {{#filtered}}<p class="hint">Only the photos {{filtered}} · <a href="/inspire">all of them</a></p>{{/filtered}}
    <ol class="entries">{{#entries}}<li><a href="/photos/{{id}}"><img src="/photos/{{id}}/thumbnail" alt="{{name}}" loading="lazy"></a>
    <div><p class="head"><span class="rank">#{{rank}}</span> <a href="/photos/{{id}}">{{name}}</a> <span class="score" title="splash potential, 0–100">{{score}}</span></p>
    <p class="reason">{{reason}}</p>
    <div class="palette">{{#palette}}<span style="background: {{hex}}; flex: {{flex}}" title="{{name}} {{percent}}"></span>{{/palette}}</div>
    {{#hasAlike}}<p class="alike">{{alikeCount}} of this scene:{{#alike}} <a href="/photos/{{id}}" title="#{{rank}} {{name}}"><img src="/photos/{{id}}/thumbnail" alt="{{name}}" loading="lazy"></a>{{/alike}}</p>{{/hasAlike}}</div></li>
    {{/entries}}</ol>
    {{#empty}}<p class="empty">No photo has an accent colour to splash yet.</p>{{/empty}}
    {{#gone}}<p class="hint">{{gone}}: <code>showhide gallery check</code> lists them, <code>showhide gallery remove --missing</code> forgets them.</p>{{/gone}}
    <p><a href="/api/inspire">JSON</a></p>
    </main>
    {{> foot}}
    """

    static let partialDownload = """
    {{> head}}
    <main class="error">
    <h1>Not every ticked photo has a show picture</h1>
    <ul>{{#failures}}<li>{{#name}}<a href="/photos/{{id}}">{{name}}</a> (photo {{id}}){{/name}}{{^name}}photo {{id}}{{/name}}: {{reason}}</li>{{/failures}}</ul>
    <form method="post" action="/export">{{#made}}<input type="hidden" name="id" value="{{id}}">{{/made}}<button type="submit">Download {{madeCount}} (.zip)</button></form>
    <p><a href="/">Back to the photos</a></p>
    </main>
    {{> foot}}
    """

    static let error = """
    {{> head}}
    <main class="error">
    <h1>{{status}} {{reason}}</h1>
    <p>{{message}}</p>
    <p><a href="{{back}}">{{backLabel}}</a></p>
    </main>
    {{> foot}}
    """
}
