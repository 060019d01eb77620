// A content item's body as HTML (Slate's Emergence\CMS\Item\*::renderBody), with one
// difference: everything is sanitized. Slate prints RichText and Embed data as stored and
// trusts its writers; here a writer can be any User (blog posts), so no item may carry script,
// event handlers, javascript: URLs or frames from anywhere but a few known video/document hosts.
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

export const ITEM_CLASS_PREFIX = 'Emergence\\CMS\\Item\\';
/** The item classes we accept and render (Slate's Album needs its ExtJS slideshow: not offered). */
export const ITEM_KINDS = ['Text', 'Markdown', 'RichText', 'Embed', 'Media'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** The short name of a stored Class (`Emergence\CMS\Item\Markdown` → Markdown), or null for one we do not render. */
export function itemKind(className: string): ItemKind | null {
  const short = className.startsWith(ITEM_CLASS_PREFIX) ? className.slice(ITEM_CLASS_PREFIX.length) : null;
  return (ITEM_KINDS as readonly string[]).includes(short ?? '') ? (short as ItemKind) : null;
}

/** Hosts an Embed may frame (https only): video and document players that are made to be embedded. */
export const EMBED_FRAME_HOSTS = [
  'www.youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
  'docs.google.com',
  'drive.google.com',
  'calendar.google.com',
  'www.google.com',
  'w.soundcloud.com',
];

const TAGS = [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'ins'];

const BASE: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ['href', 'name', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align'],
    ol: ['start'],
    code: ['class'],
  },
  // No javascript:, data: or vbscript: anywhere; relative URLs stay (links within the site).
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // A link out of a post never hands the reader's page to the target nor vouches for it.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
};

const EMBED: sanitizeHtml.IOptions = {
  ...BASE,
  allowedTags: [...TAGS, 'iframe'],
  allowedAttributes: { ...(BASE.allowedAttributes as Record<string, string[]>), iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'frameborder'] },
  allowedIframeHostnames: EMBED_FRAME_HOSTS,
  allowIframeRelativeUrls: false,
  allowedSchemesByTag: { iframe: ['https'] },
};

export const sanitizeRich = (html: string) => sanitizeHtml(html, BASE);
export const sanitizeEmbed = (html: string) => sanitizeHtml(html, EMBED);

// GitHub-flavoured Markdown (Slate: MarkdownExtra, which also has tables and fenced code).
const markdown = new Marked({ gfm: true, async: false });

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

/** PHP's nl2br(htmlspecialchars($text)). */
export const textHtml = (text: string) => escapeHtml(text).replace(/\r\n|\n|\r/g, (nl) => `<br />${nl}`);

export const markdownHtml = (text: string) => sanitizeRich(markdown.parse(text) as string);

/** An Embed's data: embed code, or a bare URL (shown as a link). */
export function embedHtml(code: string): string {
  const url = code.trim();
  if (/^https?:\/\/\S+$/i.test(url)) return sanitizeRich(`<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`);
  return sanitizeEmbed(code);
}

export interface MediaRow {
  ID: number;
  Class: string;
  Caption: string | null;
}

/** Slate's Media::getMediaMarkup for photos and documents: the thumbnail, linked to the file. */
export function mediaHtml(media: MediaRow): string {
  const caption = escapeHtml(media.Caption ?? '');
  const cls = media.Class === 'PDFMedia' ? 'pdf-link' : media.Class === 'AudioMedia' ? 'audio-link' : media.Class === 'VideoMedia' ? 'video-link' : 'image-link';
  return `<a href="/media/open/${media.ID}" title="${caption}" class="media-link ${cls}"><img src="/thumbnail/${media.ID}/400x400" alt="${caption}"></a>`;
}

export interface RenderableItem {
  ID: number;
  Class: string;
  /** The stored Data, decoded from its JSON. */
  Data: unknown;
}

const text = (data: unknown) => (typeof data === 'string' ? data : '');

/**
 * One item's HTML, inside Slate's wrapper (its classes and id; the wrapper is ours, the body is
 * sanitized). A Media item whose file is gone renders nothing, as in Slate.
 */
export function renderItem(item: RenderableItem, media: ReadonlyMap<number, MediaRow> = new Map()): string {
  const id = Number(item.ID);
  switch (itemKind(item.Class)) {
    case 'Markdown':
      return `<div class="content-item content-markdown" data-itemId="${id}">${markdownHtml(text(item.Data))}</div>`;
    case 'RichText':
      return `<div class="content-item content-richtext" id="contentItem-${id}">${sanitizeRich(text(item.Data))}</div>`;
    case 'Embed':
      return `<div class="content-item content-embed" id="contentItem-${id}">${embedHtml(text(item.Data))}</div>`;
    case 'Media': {
      const row = media.get(mediaIdOf(item.Data) ?? -1);
      return row ? `<div class="content-item content-media" id="contentItem-${id}">${mediaHtml(row)}</div>` : '';
    }
    case 'Text':
      return `<div class="content-item content-text" id="contentItem-${id}">${textHtml(text(item.Data))}</div>`;
    default:
      // A class we do not render (an imported Album): nothing, rather than markup we cannot vouch for.
      return '';
  }
}

/** A Media item's media ID (Slate's Data['MediaID']). */
export function mediaIdOf(data: unknown): number | null {
  const id = data && typeof data === 'object' && !Array.isArray(data) ? (data as { MediaID?: unknown }).MediaID : undefined;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/** Data as stored (JSON); a value that is not JSON (an imported row) is taken as the text it is. */
export function decodeData(stored: string): unknown {
  try {
    return JSON.parse(stored);
  } catch {
    return stored;
  }
}
