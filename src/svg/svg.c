#include "svg.h"

#include <math.h>
#include <string.h>

#include "json.h"

const struct svg_stroke svg_series_style[SVG_SERIES_STYLES] = {
	{ "#173a66", 2.2, "" },    /* L* 24, solid */
	{ "#e69500", 2.2, "7 4" }, /* L* 68, dashed */
	{ "#8a4f9e", 2.0, "2 3" }, /* L* 44, dotted */
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static double linear_channel(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double svg_lightness(const char *hex)
{
	double rgb[3];
	if (!hex || hex[0] != '#' || strlen(hex) != 7)
		return -1;
	for (int i = 0; i < 3; i++) {
		int hi = hex_digit(hex[1 + 2 * i]), lo = hex_digit(hex[2 + 2 * i]);
		if (hi < 0 || lo < 0)
			return -1;
		rgb[i] = linear_channel((hi * 16 + lo) / 255.0);
	}
	double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
	return y > 216.0 / 24389 ? 116 * cbrt(y) - 16 : y * 24389.0 / 27;
}

/* ---- escaping ---- */

/* U+FFFE and U+FFFF: well-formed UTF-8 that XML 1.0 does not allow. */
static bool xml_nonchar(const unsigned char *p, int len)
{
	return len == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe;
}

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* One ASCII character as XML text or attribute value. */
static void escape_ascii(FILE *f, unsigned char c)
{
	switch (c) {
	case '&': fputs("&amp;", f); break;
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&apos;", f); break;
	case '\t': case '\n': case '\r': fprintf(f, "&#%d;", c); break;
	default:
		if (c < 0x20 || c == 0x7f)
			fputs(REPLACEMENT, f); /* XML cannot carry them at all */
		else
			fputc(c, f);
	}
}

/* The first n bytes of text (or up to its end): each character XML allows
 * as itself or an entity, anything else as U+FFFD. */
static void escape_n(FILE *f, const char *text, size_t n)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + n;
	while (p < end && *p) {
		size_t len = *p < 0x80 ? 1 : (size_t)json_utf8_length(p);
		bool whole = len > 0 && p + len <= end;
		if (len == 1)
			escape_ascii(f, *p);
		else if (whole && !xml_nonchar(p, (int)len))
			fwrite(p, 1, len, f);
		else
			fputs(REPLACEMENT, f);
		p += whole ? len : 1; /* a stray byte alone */
	}
}

void svg_write_escaped(FILE *f, const char *text)
{
	escape_n(f, text ? text : "", text ? strlen(text) : 0);
}

/* ---- wrapping ---- */

/* The average advance of a sans-serif character, as a share of its size:
 * generous, so that wrapped lines fit whatever font the viewer picks. */
#define CHAR_WIDTH 0.56

static unsigned chars_per_line(double width, double font_size)
{
	double n = width / (font_size * CHAR_WIDTH);
	return n < 8 ? 8 : (unsigned)n;
}

/* Bytes of text's next line of at most max characters: up to the last space
 * that fits, else cut (never inside a UTF-8 sequence). */
static size_t next_line(const char *text, unsigned max)
{
	size_t i = 0, last_space = 0;
	unsigned chars = 0;
	for (; text[i]; i++) {
		if (((unsigned char)text[i] & 0xc0) == 0x80)
			continue;
		if (chars == max)
			return last_space ? last_space : i;
		if (text[i] == ' ')
			last_space = i;
		chars++;
	}
	return i;
}

unsigned svg_wrap_lines(double width, double font_size, const char *text)
{
	unsigned max = chars_per_line(width, font_size), lines = 0;
	while (*text) {
		text += next_line(text, max);
		while (*text == ' ')
			text++;
		lines++;
	}
	return lines ? lines : 1;
}

/* ---- elements ---- */

static void text_open(struct svg *s, double x, double y, const struct svg_font *font)
{
	static const char *const anchors[] = { "start", "middle", "end" };
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"", x, y, font->size);
	if (font->anchor != SVG_START)
		fprintf(s->f, " text-anchor=\"%s\"", anchors[font->anchor]);
	if (font->bold)
		fputs(" font-weight=\"bold\"", s->f);
	if (font->rotate != 0)
		fprintf(s->f, " transform=\"rotate(%g %.1f %.1f)\"", font->rotate, x, y);
	fprintf(s->f, " fill=\"%s\">", font->colour ? font->colour : SVG_INK);
}

void svg_text(struct svg *s, double x, double y, const struct svg_font *font, const char *text)
{
	if (!isfinite(x) || !isfinite(y))
		return;
	text_open(s, x, y, font);
	svg_write_escaped(s->f, text);
	fputs("</text>\n", s->f);
}

unsigned svg_text_wrapped(struct svg *s, double x, double y, double width,
			  const struct svg_font *font, const char *text)
{
	unsigned max = chars_per_line(width, font->size), lines = 0;
	text_open(s, x, y, font);
	do {
		size_t n = next_line(text, max);
		fprintf(s->f, "<tspan x=\"%.1f\" dy=\"%s\">", x, lines ? "1.3em" : "0");
		escape_n(s->f, text, n);
		fputs("</tspan>", s->f);
		text += n;
		while (*text == ' ')
			text++;
		lines++;
	} while (*text);
	fputs("</text>\n", s->f);
	return lines;
}

static void stroke_attrs(FILE *f, const struct svg_stroke *st)
{
	if (!st) {
		fputs(" stroke=\"none\"", f);
		return;
	}
	fprintf(f, " stroke=\"%s\" stroke-width=\"%g\"", st->colour, st->width);
	if (st->dash && st->dash[0])
		fprintf(f, " stroke-dasharray=\"%s\"", st->dash);
}

static void extra_attrs(FILE *f, const char *attrs)
{
	if (attrs && attrs[0])
		fprintf(f, " %s", attrs);
}

/* Ends an element, with a tooltip <title> when tip is given. */
static void close_element(FILE *f, const char *name, const char *tip)
{
	if (!tip) {
		fputs("/>\n", f);
		return;
	}
	fputs("><title>", f);
	svg_write_escaped(f, tip);
	fprintf(f, "</title></%s>\n", name);
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const struct svg_stroke *st)
{
	if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2))
		return;
	fprintf(s->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x1, y1, x2, y2);
	stroke_attrs(s->f, st);
	fputs("/>\n", s->f);
}

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
	      const struct svg_stroke *edge, const char *attrs, const char *tip)
{
	if (!isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h))
		return;
	fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y,
		w > 0 ? w : 0, h > 0 ? h : 0, fill ? fill : "none");
	stroke_attrs(s->f, edge);
	extra_attrs(s->f, attrs);
	close_element(s->f, "rect", tip);
}

void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill,
		const struct svg_stroke *edge, const char *attrs, const char *tip)
{
	if (!isfinite(cx) || !isfinite(cy))
		return;
	fprintf(s->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\"", cx, cy, r,
		fill ? fill : "none");
	stroke_attrs(s->f, edge);
	extra_attrs(s->f, attrs);
	close_element(s->f, "circle", tip);
}

void svg_path_begin(struct svg *s, const struct svg_stroke *st, const char *attrs)
{
	s->path_stroke = st;
	s->path_attrs = attrs;
	s->path_points = 0;
}

/* A piece of one point draws nothing: the element opens with the second. */
void svg_path_point(struct svg *s, double x, double y)
{
	if (!isfinite(x) || !isfinite(y)) {
		svg_path_end(s);
		return;
	}
	if (s->path_points == 0) {
		s->path_x = x, s->path_y = y;
	} else {
		if (s->path_points == 1) {
			fputs("<polyline fill=\"none\" stroke-linejoin=\"round\"", s->f);
			stroke_attrs(s->f, s->path_stroke);
			extra_attrs(s->f, s->path_attrs);
			fprintf(s->f, " points=\"%.1f,%.1f", s->path_x, s->path_y);
		}
		fprintf(s->f, " %.1f,%.1f", x, y);
	}
	s->path_points++;
}

void svg_path_end(struct svg *s)
{
	if (s->path_points >= 2)
		fputs("\"/>\n", s->f);
	s->path_points = 0;
}

void svg_polyline(struct svg *s, const double *x, const double *y, unsigned n,
		  const struct svg_stroke *st, const char *attrs)
{
	svg_path_begin(s, st, attrs);
	for (unsigned i = 0; i < n; i++)
		svg_path_point(s, x[i], y[i]);
	svg_path_end(s);
}

/* ---- the document ---- */

#define HEADING_SIZE 15.0
#define HEADING_PAD 12.0

double svg_heading_height(double width, const char *title)
{
	unsigned lines = svg_wrap_lines(width - 2 * HEADING_PAD, HEADING_SIZE, title);
	return 2 * HEADING_PAD + lines * HEADING_SIZE * 1.3;
}

double svg_begin(struct svg *s, FILE *f, double width, double body_height, const char *title,
		 const char *desc)
{
	double top = svg_heading_height(width, title);
	s->f = f;
	s->width = width;
	s->height = top + body_height;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%g\" "
		"height=\"%g\" viewBox=\"0 0 %g %g\" role=\"img\" aria-labelledby=\"svg-title "
		"svg-desc\" font-family=\"sans-serif\" font-size=\"12\">\n", width, s->height, width,
		s->height);
	fputs("<title id=\"svg-title\">", f);
	svg_write_escaped(f, title);
	fputs("</title>\n<desc id=\"svg-desc\">", f);
	svg_write_escaped(f, desc);
	fputs("</desc>\n", f);
	svg_rect(s, 0, 0, width, s->height, SVG_PAPER, NULL, NULL, NULL);
	struct svg_font font = { .size = HEADING_SIZE, .bold = true };
	svg_text_wrapped(s, HEADING_PAD, HEADING_PAD + HEADING_SIZE, width - 2 * HEADING_PAD, &font,
			 title);
	return top;
}

void svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
}

void svg_group_begin(struct svg *s, double dx, double dy, const char *cls, const char *title,
		     const char *desc)
{
	fprintf(s->f, "<g transform=\"translate(%.1f %.1f)\"", dx, dy);
	if (cls)
		fprintf(s->f, " class=\"%s\"", cls);
	fputs(">\n", s->f);
	if (title) {
		fputs("<title>", s->f);
		svg_write_escaped(s->f, title);
		fputs("</title>\n", s->f);
	}
	if (desc) {
		fputs("<desc>", s->f);
		svg_write_escaped(s->f, desc);
		fputs("</desc>\n", s->f);
	}
}

void svg_group_end(struct svg *s)
{
	fputs("</g>\n", s->f);
}
