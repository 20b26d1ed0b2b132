<?xml version="1.0" encoding="UTF-8"?>
<!-- xliffmt-tmx.xsl: the translated segments of a document as TMX 1.4,
     to load into a CAT tool's translation memory; "xliffmt report" runs
     it when given the stylesheet name "tmx". Segments without a
     target, marked untranslated, or in units with translate="no" are left
     out. XLIFF codes become TMX codes: g, and bx/ex or bpt/ept with their
     partner in the segment, become bpt/ept pairs; x and ph become ph;
     the rest become it. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:f="urn:xliffmt:findings:1"
    xmlns:x="urn:oasis:names:tc:xliff:document:1.2"
    exclude-result-prefixes="f x">

<xsl:output method="xml" encoding="UTF-8" indent="yes"/>

<!-- Set by xliffmt report. -->
<xsl:param name="findings" select="/.."/>
<!-- The language of the header's notes and properties. -->
<xsl:param name="adminlang" select="'en'"/>

<xsl:variable name="F" select="$findings/f:findings"/>
<!-- Isolated codes by side, element name and pairing key, for the sides
     too long to search for a code's partner (see "partner"). -->
<xsl:key name="isolated" match="*[self::x:bx or self::x:ex or self::x:bpt or self::x:ept]"
    use="concat(generate-id(ancestor::f:source | ancestor::f:target), ' ', local-name(), ' ', string(@rid | @id[not(../@rid)]))"/>

<xsl:template match="/">
  <xsl:if test="not($F)">
    <xsl:message terminate="yes">no findings: run this stylesheet with xliffmt report</xsl:message>
  </xsl:if>
  <tmx version="1.4">
    <header creationtool="xliffmt" creationtoolversion="{$F/@version}"
        datatype="xml" segtype="sentence" o-tmf="XLIFF"
        adminlang="{$adminlang}">
      <xsl:attribute name="srclang">
        <xsl:choose>
          <xsl:when test="$F/@source-language"><xsl:value-of select="$F/@source-language"/></xsl:when>
          <xsl:otherwise>*all*</xsl:otherwise>
        </xsl:choose>
      </xsl:attribute>
    </header>
    <body>
      <xsl:apply-templates select="$F/f:file/f:unit[@translate = 'yes']/f:segment[f:target][not(contains(concat(' ', @flags, ' '), ' untranslated '))]"/>
    </body>
  </tmx>
</xsl:template>

<xsl:template match="f:segment">
  <tu>
    <xsl:attribute name="tuid">
      <xsl:value-of select="@unit"/>
      <xsl:if test="@mid"><xsl:value-of select="concat('#', @mid)"/></xsl:if>
    </xsl:attribute>
    <xsl:if test="not(@mid)"><xsl:attribute name="segtype">block</xsl:attribute></xsl:if>
    <xsl:if test="../../@original">
      <prop type="x-original"><xsl:value-of select="../../@original"/></prop>
    </xsl:if>
    <xsl:call-template name="tuv">
      <xsl:with-param name="lang" select="../../@source-language"/>
      <xsl:with-param name="side" select="f:source"/>
    </xsl:call-template>
    <xsl:call-template name="tuv">
      <xsl:with-param name="lang" select="../../@target-language"/>
      <xsl:with-param name="side" select="f:target"/>
    </xsl:call-template>
  </tu>
</xsl:template>

<xsl:template name="tuv">
  <xsl:param name="lang"/>
  <xsl:param name="side"/>
  <tuv>
    <xsl:attribute name="xml:lang">
      <xsl:choose>
        <xsl:when test="string($lang) != ''"><xsl:value-of select="$lang"/></xsl:when>
        <xsl:otherwise>und</xsl:otherwise>
      </xsl:choose>
    </xsl:attribute>
    <seg><xsl:apply-templates select="$side/node()" mode="seg"/></seg>
  </tuv>
</xsl:template>

<xsl:template match="text()" mode="seg">
  <xsl:value-of select="."/>
</xsl:template>

<!-- The key that pairs an isolated code with its partner. -->
<xsl:template name="key">
  <xsl:choose>
    <xsl:when test="@rid"><xsl:value-of select="@rid"/></xsl:when>
    <xsl:otherwise><xsl:value-of select="@id"/></xsl:otherwise>
  </xsl:choose>
</xsl:template>

<!-- i of a pair: 1 + the opening codes (g, bx, bpt) of its side that
     start before its opening code, enclosing g included, enclosing bx or
     bpt not. xsl:number walks back to the start of the side only, where
     the preceding axis walked back to the start of the document for each
     code. -->
<xsl:template name="i">
  <xsl:param name="open" select="."/>
  <xsl:for-each select="$open[last()]">
    <xsl:variable name="n"><xsl:number level="any" count="x:g | x:bx | x:bpt" from="f:source | f:target"/></xsl:variable>
    <xsl:value-of select="$n - count(ancestor::x:bx | ancestor::x:bpt)"/>
  </xsl:for-each>
</xsl:template>

<!-- x from a numeric XLIFF id, to match codes across the tuv elements. -->
<xsl:template name="x">
  <xsl:if test="string(number(@id)) != 'NaN' and number(@id) > 0 and floor(@id) = number(@id)">
    <xsl:attribute name="x"><xsl:value-of select="number(@id)"/></xsl:attribute>
  </xsl:if>
</xsl:template>

<xsl:template match="x:g" mode="seg">
  <xsl:variable name="i"><xsl:call-template name="i"/></xsl:variable>
  <bpt i="{$i}"><xsl:call-template name="x"/></bpt>
  <xsl:apply-templates mode="seg"/>
  <ept i="{$i}"/>
</xsl:template>

<!-- An isolated code's partner is searched for on a side of a few codes
     and looked up in the key on a longer one, where a search for each
     code would take quadratic time. The key is built at its first use,
     so only a document with long sides pays for it. -->
<xsl:template match="x:bx | x:bpt" mode="seg">
  <xsl:variable name="k"><xsl:call-template name="key"/></xsl:variable>
  <xsl:variable name="side" select="ancestor::f:source | ancestor::f:target"/>
  <xsl:variable name="other" select="concat('e', substring(local-name(), 2))"/>
  <xsl:choose>
    <xsl:when test="$side/descendant::*[64]">
      <xsl:call-template name="begin">
        <xsl:with-param name="partner" select="key('isolated', concat(generate-id($side), ' ', $other, ' ', $k))"/>
      </xsl:call-template>
    </xsl:when>
    <xsl:otherwise>
      <xsl:call-template name="begin">
        <xsl:with-param name="partner" select="$side//*[local-name() = $other][(@rid and @rid = $k) or (not(@rid) and @id = $k)]"/>
      </xsl:call-template>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>

<xsl:template name="begin">
  <xsl:param name="partner"/>
  <xsl:choose>
    <xsl:when test="$partner">
      <bpt><xsl:attribute name="i"><xsl:call-template name="i"/></xsl:attribute>
        <xsl:call-template name="x"/><xsl:value-of select="."/></bpt>
    </xsl:when>
    <xsl:otherwise>
      <it pos="begin"><xsl:call-template name="x"/><xsl:value-of select="."/></it>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>

<!-- The partner of an ex or ept is the first candidate under each parent
     (the predicate [1] of a step), and the last of those. -->
<xsl:template match="x:ex | x:ept" mode="seg">
  <xsl:variable name="k"><xsl:call-template name="key"/></xsl:variable>
  <xsl:variable name="side" select="ancestor::f:source | ancestor::f:target"/>
  <xsl:variable name="other" select="concat('b', substring(local-name(), 2))"/>
  <xsl:choose>
    <xsl:when test="$side/descendant::*[64]">
      <xsl:variable name="all" select="key('isolated', concat(generate-id($side), ' ', $other, ' ', $k))"/>
      <xsl:call-template name="end">
        <xsl:with-param name="partner" select="$all[count(.. | $all[last()]/..) = 1][1]"/>
      </xsl:call-template>
    </xsl:when>
    <xsl:otherwise>
      <xsl:call-template name="end">
        <xsl:with-param name="partner" select="$side//*[local-name() = $other][(@rid and @rid = $k) or (not(@rid) and @id = $k)][1]"/>
      </xsl:call-template>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>

<xsl:template name="end">
  <xsl:param name="partner"/>
  <xsl:choose>
    <xsl:when test="$partner">
      <ept><xsl:attribute name="i"><xsl:call-template name="i"><xsl:with-param name="open" select="$partner"/></xsl:call-template></xsl:attribute>
        <xsl:value-of select="."/></ept>
    </xsl:when>
    <xsl:otherwise>
      <it pos="end"><xsl:call-template name="x"/><xsl:value-of select="."/></it>
    </xsl:otherwise>
  </xsl:choose>
</xsl:template>

<xsl:template match="x:x | x:ph" mode="seg">
  <ph><xsl:call-template name="x"/><xsl:value-of select="."/></ph>
</xsl:template>

<xsl:template match="x:it" mode="seg">
  <it>
    <xsl:attribute name="pos">
      <xsl:choose>
        <xsl:when test="@pos = 'open'">begin</xsl:when>
        <xsl:otherwise>end</xsl:otherwise>
      </xsl:choose>
    </xsl:attribute>
    <xsl:call-template name="x"/><xsl:value-of select="."/>
  </it>
</xsl:template>

<!-- mrk, sub and other markup: their text only. -->
<xsl:template match="*" mode="seg">
  <xsl:apply-templates mode="seg"/>
</xsl:template>

</xsl:stylesheet>
