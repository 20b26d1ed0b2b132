<?xml version="1.0" encoding="UTF-8"?>
<!-- xliffmt-report.xsl: the review page of "xliffmt report", one HTML
     file with its style and script inline, from the findings document
     (xliffmt-report(1)). Copy it to make your own. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:f="urn:xliffmt:findings:1"
    xmlns:x="urn:oasis:names:tc:xliff:document:1.2"
    exclude-result-prefixes="f x">

<xsl:output method="html" encoding="UTF-8" indent="no"
    doctype-system="about:legacy-compat"/>

<!-- Set by xliffmt report. -->
<xsl:param name="findings" select="/.."/>
<!-- The page title; default: "Review of FILE". -->
<xsl:param name="title" select="''"/>

<xsl:variable name="F" select="$findings/f:findings"/>
<!-- The codes of each side of a segment by element name and id, for
     the sides too long to search for a code's twin (see "chip"). -->
<xsl:key name="code" match="*[ancestor::f:source or ancestor::f:target]"
    use="concat(generate-id(ancestor::f:source | ancestor::f:target), ' ', local-name(), ' ', @id)"/>
<xsl:variable name="flag-names"
    select="'untranslated tag-missing tag-added tag-order needs-review length identical problem mt locked'"/>

<xsl:template match="/">
  <xsl:if test="not($F)">
    <xsl:message terminate="yes">no findings: run this stylesheet with xliffmt report</xsl:message>
  </xsl:if>
  <html lang="en">
    <head>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <meta name="generator" content="xliffmt {$F/@version}"/>
      <title>
        <xsl:choose>
          <xsl:when test="$title != ''"><xsl:value-of select="$title"/></xsl:when>
          <xsl:otherwise>Review of <xsl:value-of select="$F/@file"/></xsl:otherwise>
        </xsl:choose>
      </title>
      <style><xsl:call-template name="css"/></style>
    </head>
    <body>
      <header>
        <h1>
          <xsl:choose>
            <xsl:when test="$title != ''"><xsl:value-of select="$title"/></xsl:when>
            <xsl:otherwise>Review of <code><xsl:value-of select="$F/@file"/></code></xsl:otherwise>
          </xsl:choose>
        </h1>
        <p class="meta">
          <xsl:value-of select="$F/@source-language"/> → <xsl:value-of select="$F/@target-language"/>
          · XLIFF <xsl:value-of select="$F/@xliff-version"/>, <xsl:value-of select="$F/@encoding"/>
          · xliffmt <xsl:value-of select="$F/@version"/>
        </p>
      </header>
      <xsl:apply-templates select="$F/f:summary"/>
      <xsl:apply-templates select="$F/f:problems[f:problem]"/>
      <xsl:call-template name="filters"/>
      <table class="segments">
        <thead>
          <tr>
            <th class="n">#</th><th class="unit">Unit</th>
            <th class="src">Source <span class="lang"><xsl:value-of select="$F/@source-language"/></span></th>
            <th class="tgt">Target <span class="lang"><xsl:value-of select="$F/@target-language"/></span></th>
            <th class="state">State</th><th class="flags">Flags</th>
          </tr>
        </thead>
        <xsl:call-template name="files">
          <xsl:with-param name="files" select="$F/f:file"/>
        </xsl:call-template>
      </table>
      <footer>Codes are numbered by their id; a pair's opening and closing
        codes share a colour, and pointing at one shows its partners in the
        row. Struck-through codes are missing from the target; dashed ones
        are not in the source.</footer>
      <script><xsl:call-template name="js"/></script>
    </body>
  </html>
</xsl:template>

<!-- Summary ............................................................ -->
<xsl:template match="f:summary">
  <section class="summary">
    <div class="card"><b><xsl:value-of select="@files"/></b> files</div>
    <div class="card"><b><xsl:value-of select="@units"/></b> units
      <small><xsl:value-of select="@translatable-units"/> translatable,
        <xsl:value-of select="@units-with-target"/> with target</small></div>
    <div class="card"><b><xsl:value-of select="@segments"/></b> segments</div>
    <div class="card"><b><xsl:value-of select="@translatable-words"/></b> translatable words</div>
    <div class="card">
      <xsl:if test="@errors > 0"><xsl:attribute name="class">card bad</xsl:attribute></xsl:if>
      <b><xsl:value-of select="@errors + @warnings"/></b> problems
      <small><xsl:value-of select="@errors"/> errors,
        <xsl:value-of select="@warnings"/> warnings</small></div>
    <div class="card states">
      <span class="h">States (units)</span>
      <ul>
        <xsl:for-each select="f:state">
          <li><code><xsl:value-of select="@name"/></code>
            <xsl:text> </xsl:text><b><xsl:value-of select="@units"/></b></li>
        </xsl:for-each>
      </ul>
    </div>
  </section>
</xsl:template>

<xsl:template match="f:problems">
  <details class="problems" open="open">
    <summary>Problems found by <code>xliffmt check</code></summary>
    <ul>
      <xsl:for-each select="f:problem">
        <li class="{@severity}">
          <span class="sev"><xsl:value-of select="@severity"/></span>
          line <xsl:value-of select="@line"/>
          <xsl:if test="@unit"> · unit <code><xsl:value-of select="@unit"/></code></xsl:if>:
          <xsl:value-of select="."/>
        </li>
      </xsl:for-each>
    </ul>
  </details>
</xsl:template>

<!-- Filters: radio buttons before the table, so that CSS alone hides
     the rows without the chosen flag. -->
<xsl:template name="filters">
  <input type="radio" name="show" id="show-all" checked="checked" class="show"/>
  <xsl:for-each select="$F/f:summary/f:flag[@segments > 0]">
    <input type="radio" name="show" id="show-{@name}" class="show"/>
  </xsl:for-each>
  <nav class="filters">
    <span class="h">Show</span>
    <label for="show-all">all <b><xsl:value-of select="$F/f:summary/@rows"/></b></label>
    <xsl:for-each select="$F/f:summary/f:flag[@segments > 0]">
      <label for="show-{@name}" class="flag-{@name}">
        <xsl:value-of select="@name"/><xsl:text> </xsl:text><b><xsl:value-of select="@segments"/></b>
      </label>
    </xsl:for-each>
  </nav>
</xsl:template>

<!-- Rows ............................................................... -->
<!-- Rows are numbered across files: each file's rows start after those
     of the files before it. Halving the list of files keeps that count
     linear in the rows times the log of the files, where
     count(preceding::f:segment) in each row, or xsl:number, would walk
     back through the whole document once per row. -->
<xsl:template name="files">
  <xsl:param name="files"/>
  <xsl:param name="before" select="0"/>
  <xsl:variable name="n" select="count($files)"/>
  <xsl:choose>
    <xsl:when test="$n = 1">
      <xsl:apply-templates select="$files">
        <xsl:with-param name="before" select="$before"/>
      </xsl:apply-templates>
    </xsl:when>
    <xsl:when test="$n > 1">
      <xsl:variable name="first" select="$files[position() &lt;= $n div 2]"/>
      <xsl:call-template name="files">
        <xsl:with-param name="files" select="$first"/>
        <xsl:with-param name="before" select="$before"/>
      </xsl:call-template>
      <xsl:call-template name="files">
        <xsl:with-param name="files" select="$files[position() > $n div 2]"/>
        <xsl:with-param name="before" select="$before + count($first/f:unit/f:segment)"/>
      </xsl:call-template>
    </xsl:when>
  </xsl:choose>
</xsl:template>

<xsl:template match="f:file">
  <xsl:param name="before" select="0"/>
  <tbody>
    <tr class="file">
      <th colspan="6">
        <xsl:value-of select="@original"/>
        <span class="lang"><xsl:value-of select="@source-language"/> → <xsl:value-of select="@target-language"/></span>
      </th>
    </tr>
    <xsl:apply-templates select="f:unit/f:segment">
      <xsl:with-param name="before" select="$before"/>
    </xsl:apply-templates>
  </tbody>
</xsl:template>

<xsl:template match="f:segment">
  <xsl:param name="before" select="0"/>
  <xsl:variable name="n" select="$before + position()"/>
  <tr id="s{$n}" data-unit="{@unit}" data-flags="{@flags}">
    <td class="n"><a href="#s{$n}"><xsl:value-of select="$n"/></a></td>
    <td class="unit">
      <code><xsl:value-of select="@unit"/></code>
      <xsl:if test="@mid != ''"><span class="mid"> #<xsl:value-of select="@mid"/></span></xsl:if>
      <div class="line">line <xsl:value-of select="../@line"/></div>
    </td>
    <td class="src" lang="{../../@source-language}">
      <xsl:apply-templates select="f:source/node()" mode="inline"/>
    </td>
    <td class="tgt" lang="{../../@target-language}">
      <xsl:choose>
        <xsl:when test="f:target"><xsl:apply-templates select="f:target/node()" mode="inline"/></xsl:when>
        <xsl:when test="../@translate = 'no'"><span class="muted">not for translation</span></xsl:when>
        <xsl:otherwise><span class="none">no target</span></xsl:otherwise>
      </xsl:choose>
    </td>
    <td class="state">
      <xsl:choose>
        <xsl:when test="../@translate = 'no'">translate=no</xsl:when>
        <xsl:otherwise><xsl:value-of select="../@state"/></xsl:otherwise>
      </xsl:choose>
      <xsl:if test="../@state-qualifier"><div class="q"><xsl:value-of select="../@state-qualifier"/></div></xsl:if>
    </td>
    <td class="flags">
      <xsl:call-template name="flag-pills">
        <xsl:with-param name="rest" select="normalize-space(@flags)"/>
      </xsl:call-template>
      <xsl:for-each select="../f:problem">
        <div class="msg {@severity}"><xsl:value-of select="."/></div>
      </xsl:for-each>
      <xsl:for-each select="../f:note">
        <div class="note"><xsl:value-of select="."/></div>
      </xsl:for-each>
    </td>
  </tr>
</xsl:template>

<xsl:template name="flag-pills">
  <xsl:param name="rest"/>
  <xsl:if test="$rest != ''">
    <xsl:variable name="first">
      <xsl:choose>
        <xsl:when test="contains($rest, ' ')"><xsl:value-of select="substring-before($rest, ' ')"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$rest"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <span class="flag flag-{$first}"><xsl:value-of select="$first"/></span>
    <xsl:call-template name="flag-pills">
      <xsl:with-param name="rest" select="substring-after($rest, ' ')"/>
    </xsl:call-template>
  </xsl:if>
</xsl:template>

<!-- Inline content: text as text, codes as chips ........................ -->
<xsl:template match="text()" mode="inline">
  <xsl:value-of select="."/>
</xsl:template>

<xsl:template match="x:g" mode="inline">
  <xsl:call-template name="chip"><xsl:with-param name="shape" select="'open'"/></xsl:call-template>
  <xsl:apply-templates mode="inline"/>
  <xsl:call-template name="chip"><xsl:with-param name="shape" select="'close'"/></xsl:call-template>
</xsl:template>

<xsl:template match="x:bx | x:bpt | x:it[@pos = 'open']" mode="inline">
  <xsl:call-template name="chip"><xsl:with-param name="shape" select="'open'"/></xsl:call-template>
</xsl:template>

<xsl:template match="x:ex | x:ept | x:it" mode="inline">
  <xsl:call-template name="chip"><xsl:with-param name="shape" select="'close'"/></xsl:call-template>
</xsl:template>

<xsl:template match="x:x | x:ph" mode="inline">
  <xsl:call-template name="chip"><xsl:with-param name="shape" select="'single'"/></xsl:call-template>
</xsl:template>

<xsl:template match="x:mrk" mode="inline">
  <span class="mrk" title="mrk {@mtype}"><xsl:apply-templates mode="inline"/></span>
</xsl:template>

<xsl:template match="x:sub" mode="inline">
  <xsl:apply-templates mode="inline"/>
</xsl:template>

<!-- Markup of other vocabularies: shown, never copied. -->
<xsl:template match="*" mode="inline">
  <span class="chip other single" title="&lt;{name()}&gt;"><xsl:value-of select="local-name()"/></span>
  <xsl:value-of select="."/>
</xsl:template>

<xsl:template name="chip">
  <xsl:param name="shape"/>
  <xsl:variable name="label">
    <xsl:choose>
      <xsl:when test="(self::x:bx or self::x:ex or self::x:ept or self::x:it) and @rid"><xsl:value-of select="@rid"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="hue">
    <xsl:choose>
      <xsl:when test="string(number($label)) != 'NaN'"><xsl:value-of select="number($label) mod 8"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="string-length($label) mod 8"/></xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <xsl:variable name="family">
    <xsl:choose>
      <xsl:when test="self::x:x or self::x:ph">s</xsl:when>
      <xsl:otherwise>p</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <!-- The same code (element and id) on the other side, if any: searched
     for on a side of a few codes, looked up in the key on a longer one,
     where a search for each code would take quadratic time. The key is
     built at its first use, so only a document with long sides pays for
     it. -->
  <xsl:variable name="here" select="ancestor::f:source | ancestor::f:target"/>
  <xsl:variable name="other" select="($here/../f:source | $here/../f:target)[count(. | $here) != 1]"/>
  <xsl:variable name="long" select="boolean($other/descendant::*[64])"/>
  <xsl:variable name="state">
    <xsl:choose>
      <xsl:when test="not($other)"></xsl:when>
      <xsl:when test="not($long) and $other//*[local-name() = local-name(current())][string(@id) = string(current()/@id)]"></xsl:when>
      <xsl:when test="$long and key('code', concat(generate-id($other), ' ', local-name(), ' ', @id))"></xsl:when>
      <xsl:when test="$here/self::f:source"> lost</xsl:when>
      <xsl:otherwise> extra</xsl:otherwise>
    </xsl:choose>
  </xsl:variable>
  <span class="chip {$shape} k{$hue}{$state}" data-pair="{$family}{$label}">
    <xsl:attribute name="title">
      <xsl:value-of select="concat('&lt;', local-name())"/>
      <xsl:for-each select="@*">
        <xsl:value-of select="concat(' ', name(), '=&quot;', ., '&quot;')"/>
      </xsl:for-each>
      <xsl:text>&gt;</xsl:text>
      <xsl:value-of select="self::x:bpt | self::x:ept | self::x:ph | self::x:it"/>
    </xsl:attribute>
    <xsl:value-of select="$label"/>
  </span>
</xsl:template>

<!-- Style and script ..................................................... -->
<xsl:template name="css">
:root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --head: #243b53;
  --paper: #ffffff; --band: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0; padding: 20px 24px; font: 14px/1.45 system-ui, -apple-system,
  "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; color: var(--ink);
  background: var(--band); }
h1 { font-size: 20px; margin: 0 0 2px; }
h1 code { font-size: 19px; }
.meta { color: var(--muted); margin: 0 0 14px; }
.summary { display: flex; flex-wrap: wrap; gap: 10px; margin-bottom: 12px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 8px;
  padding: 8px 14px; min-width: 110px; color: var(--muted); }
.card b { display: block; font-size: 22px; color: var(--ink); }
.card small { display: block; }
.card.bad b { color: #c81e1e; }
.card.states ul { margin: 2px 0 0; padding: 0; list-style: none; }
.card.states li b { display: inline; font-size: 14px; }
.h { font-weight: 600; color: var(--muted); margin-right: 6px; }
details.problems { background: #fff8f1; border: 1px solid #f8d3b0; border-radius: 8px;
  padding: 8px 14px; margin-bottom: 12px; }
details.problems ul { margin: 6px 0 0; padding-left: 18px; }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
li.error .sev, .msg.error { color: #c81e1e; }
li.warning .sev, .msg.warning { color: #b45309; }
input.show { position: absolute; opacity: 0; pointer-events: none; }
nav.filters { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 0 0 10px; }
nav.filters label { cursor: pointer; background: var(--paper); border: 1px solid var(--line);
  border-radius: 14px; padding: 2px 10px; user-select: none; }
nav.filters label b { color: var(--muted); font-weight: 600; }
<xsl:call-template name="filter-css">
  <xsl:with-param name="rest" select="concat('all ', $flag-names)"/>
</xsl:call-template>
table.segments { width: 100%; border-collapse: separate; border-spacing: 0; background: var(--paper);
  border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
thead th { background: var(--head); color: #fff; text-align: left; font-weight: 600;
  padding: 8px 10px; position: sticky; top: 0; }
th .lang, tr.file .lang { font-weight: 400; opacity: .75; margin-left: 6px; }
tr.file th { background: #e4e7eb; color: var(--ink); text-align: left; padding: 5px 10px; font-weight: 600; }
td { padding: 7px 10px; vertical-align: top; border-top: 1px solid var(--line); }
td.n { width: 3em; color: var(--muted); text-align: right; }
td.n a { color: inherit; text-decoration: none; }
td.unit { width: 9em; overflow-wrap: anywhere; }
td.unit .line, td.state .q { color: var(--muted); font-size: 12px; }
td.src, td.tgt { width: 34%; white-space: pre-wrap; }
td.state { width: 14em; font-size: 12px; overflow-wrap: anywhere; }
td.flags { width: 12em; }
.none { color: #c81e1e; font-style: italic; }
.muted { color: var(--muted); font-style: italic; }
tr[data-flags~="untranslated"] td.tgt, tr[data-flags~="tag-missing"] td.tgt { background: #fff5f5; }
tr[data-flags~="locked"] td { color: var(--muted); }
tr:target td { background: #fffbea; }
.flag { display: inline-block; font-size: 11px; font-weight: 600; border-radius: 10px;
  padding: 0 7px; margin: 0 3px 3px 0; background: #e4e7eb; color: #3e4c59; }
.flag-untranslated, .flag-tag-missing, .flag-problem { background: #fde2e2; color: #9b1c1c; }
.flag-tag-added { background: #feecdc; color: #8a2c0d; }
.flag-tag-order, .flag-length { background: #fdf6b2; color: #723b13; }
.flag-needs-review { background: #e1effe; color: #1e429f; }
.flag-mt { background: #d5f5f6; color: #05505c; }
.msg, .note { font-size: 12px; margin-top: 3px; }
.note { color: var(--muted); font-style: italic; }
.mrk { border-bottom: 1px dotted var(--muted); }
.chip { display: inline-block; font: 600 10px/16px ui-monospace, "DejaVu Sans Mono", monospace;
  min-width: 16px; height: 16px; padding: 0 4px; margin: 0 1px; vertical-align: 1px;
  text-align: center; border: 1px solid; white-space: nowrap; cursor: default; }
.chip.open { border-radius: 8px 2px 2px 8px; }
.chip.open::after { content: "›"; margin-left: 2px; }
.chip.close { border-radius: 2px 8px 8px 2px; }
.chip.close::before { content: "‹"; margin-right: 2px; }
.chip.single { border-radius: 3px; }
.chip.other { background: #f0f4f8; color: #52606d; border-color: #bcccdc; }
.k0 { background: #dbeafe; color: #1e40af; border-color: #93c5fd; }
.k1 { background: #dcfce7; color: #166534; border-color: #86efac; }
.k2 { background: #fef3c7; color: #92400e; border-color: #fcd34d; }
.k3 { background: #fce7f3; color: #9d174d; border-color: #f9a8d4; }
.k4 { background: #ede9fe; color: #5b21b6; border-color: #c4b5fd; }
.k5 { background: #cffafe; color: #155e75; border-color: #67e8f9; }
.k6 { background: #ffedd5; color: #9a3412; border-color: #fdba74; }
.k7 { background: #e5e7eb; color: #374151; border-color: #9ca3af; }
.chip.lost { text-decoration: line-through; opacity: .6; }
.chip.extra { border-style: dashed; border-color: #c81e1e; }
.chip.hl { outline: 2px solid var(--ink); outline-offset: 1px; }
footer { color: var(--muted); font-size: 12px; margin-top: 12px; }
@media print { nav.filters, input.show { display: none; } body { background: #fff; } }
</xsl:template>

<!-- For each flag: its label highlighted when chosen, other rows hidden. -->
<xsl:template name="filter-css">
  <xsl:param name="rest"/>
  <xsl:if test="$rest != ''">
    <xsl:variable name="name">
      <xsl:choose>
        <xsl:when test="contains($rest, ' ')"><xsl:value-of select="substring-before($rest, ' ')"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$rest"/></xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
#show-<xsl:value-of select="$name"/>:checked ~ nav label[for="show-<xsl:value-of select="$name"/>"] { background: var(--head); color: #fff; border-color: var(--head); }
#show-<xsl:value-of select="$name"/>:checked ~ nav label[for="show-<xsl:value-of select="$name"/>"] b { color: #fff; }
<xsl:if test="$name != 'all'">#show-<xsl:value-of select="$name"/>:checked ~ table tr[data-flags]:not([data-flags~="<xsl:value-of select="$name"/>"]) { display: none; }
</xsl:if>
    <xsl:call-template name="filter-css">
      <xsl:with-param name="rest" select="substring-after($rest, ' ')"/>
    </xsl:call-template>
  </xsl:if>
</xsl:template>

<!-- Pointing at a code outlines it and its partners in the row. -->
<xsl:template name="js">
(function () {
  function mark(e, on) {
    var c = e.target.closest ? e.target.closest(".chip[data-pair]") : null;
    if (!c) return;
    var row = c.closest("tr"), all = row.querySelectorAll(".chip[data-pair]");
    for (var i = 0; i != all.length; i++)
      if (all[i].getAttribute("data-pair") === c.getAttribute("data-pair"))
        all[i].classList.toggle("hl", on);
  }
  document.addEventListener("mouseover", function (e) { mark(e, true); });
  document.addEventListener("mouseout", function (e) { mark(e, false); });
})();
</xsl:template>

</xsl:stylesheet>
