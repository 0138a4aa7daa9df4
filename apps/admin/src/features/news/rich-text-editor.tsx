import { Button, Input, Space, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: {
    bold: 'Bold',
    italic: 'Italic',
    heading: 'Heading',
    bullets: 'Bulleted list',
    numbers: 'Numbered list',
    link: 'Link',
    unlink: 'Remove link',
    add: 'Add',
    url: 'https://…',
  },
  'zh-CN': {
    bold: '粗体',
    italic: '斜体',
    heading: '标题',
    bullets: '项目符号列表',
    numbers: '编号列表',
    link: '链接',
    unlink: '移除链接',
    add: '添加',
    url: 'https://…',
  },
});

/** The editor's HTML, or '' when it holds no text and no image (an empty paragraph is no body). */
function htmlOf(element: HTMLElement): string {
  const empty = element.textContent?.trim() === '' && !element.querySelector('img');
  return empty ? '' : element.innerHTML;
}

/**
 * A small rich-text editor for article bodies: a contentEditable area with bold, italic,
 * heading, lists and links. What it produces is only a draft: the server keeps what its
 * allow-list allows (sanitize-html) and the editor shows the saved result when reopened.
 */
export function RichTextEditor({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (html: string) => void;
  testId?: string;
}) {
  const t = useT();
  const area = useRef<HTMLDivElement>(null);
  const [linking, setLinking] = useState(false);
  const [url, setUrl] = useState('https://');
  const saved = useRef<Range | null>(null);

  // Only an outside change (loading an article) rewrites the area: rewriting while typing would move the caret.
  useEffect(() => {
    const element = area.current;
    if (element && htmlOf(element) !== (value ?? '')) element.innerHTML = value ?? '';
  }, [value]);

  const emit = () => area.current && onChange?.(htmlOf(area.current));
  const run = (command: string, argument?: string) => {
    area.current?.focus();
    // execCommand is deprecated but still the only editing API browsers share; it needs no dependency.
    document.execCommand(command, false, argument);
    emit();
  };
  const startLink = () => {
    const selection = window.getSelection();
    saved.current = selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
    setUrl('https://');
    setLinking(true);
  };
  const addLink = () => {
    setLinking(false);
    if (!/^(https?:\/\/|mailto:)\S+$/.test(url)) return;
    area.current?.focus();
    const selection = window.getSelection();
    if (saved.current && selection) {
      selection.removeAllRanges();
      selection.addRange(saved.current);
    }
    run('createLink', url);
  };

  return (
    <div style={{ border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Space wrap size={4} style={{ padding: 6, borderBottom: '1px solid #f0f0f0', width: '100%' }}>
        <ToolButton label={t('bold')} text="B" onClick={() => run('bold')} />
        <ToolButton label={t('italic')} text="I" onClick={() => run('italic')} />
        <ToolButton label={t('heading')} text="H" onClick={() => run('formatBlock', '<h3>')} />
        <ToolButton label={t('bullets')} text="•" onClick={() => run('insertUnorderedList')} />
        <ToolButton label={t('numbers')} text="1." onClick={() => run('insertOrderedList')} />
        <ToolButton label={t('link')} text={t('link')} onClick={startLink} />
        <ToolButton label={t('unlink')} text={t('unlink')} onClick={() => run('unlink')} />
        {linking && (
          <Space.Compact size="small">
            <Input
              size="small"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              onPressEnter={addLink}
              placeholder={t('url')}
              style={{ width: 260 }}
              autoFocus
            />
            <Button size="small" type="primary" onClick={addLink}>
              {t('add')}
            </Button>
          </Space.Compact>
        )}
      </Space>
      <div
        ref={area}
        data-testid={testId}
        className="tw-rich-area"
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        onInput={emit}
        onBlur={emit}
        style={{
          minHeight: 180,
          maxHeight: 360,
          overflowY: 'auto',
          padding: '8px 12px',
          outline: 'none',
          lineHeight: 1.6,
        }}
      />
    </div>
  );
}

/** A toolbar button that keeps the editor's selection (mouse down would otherwise take the focus). */
function ToolButton({
  label,
  text,
  onClick,
}: {
  label: string;
  text: string;
  onClick: () => void;
}) {
  return (
    <Tooltip title={label}>
      <Button
        size="small"
        aria-label={label}
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      >
        {text}
      </Button>
    </Tooltip>
  );
}

/** The body as readers will get it, drawn in a sandbox: nothing in it can run. */
export function RichTextPreview({ html }: { html: string }) {
  const document = `<!doctype html><meta charset="utf-8"><style>body{font:14px/1.6 system-ui,sans-serif;margin:12px;color:#222;max-width:390px}img{max-width:100%}</style>${html}`;
  return (
    <iframe
      title="preview"
      sandbox=""
      srcDoc={document}
      style={{
        width: '100%',
        height: 360,
        border: '1px solid #f0f0f0',
        borderRadius: 6,
        background: '#fff',
      }}
    />
  );
}
