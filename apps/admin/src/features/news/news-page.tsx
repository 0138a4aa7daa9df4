import {
  LANGUAGES,
  LANGUAGE_NAMES,
  LANGUAGE_TAGS,
  type Language,
} from '@tradewind/contract/languages';
import {
  ARTICLE_BODY_MAX,
  ARTICLE_SUMMARY_MAX,
  ARTICLE_TITLE_MAX,
  type ArticleAdminItem,
  type ArticleKind,
  type ArticleState,
} from '@tradewind/contract/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Image,
  Input,
  Modal,
  Radio,
  Segmented,
  Space,
  Tag,
  Tooltip,
  Upload,
} from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { fromLocalInput, toLocalInput } from '@/lib/local-time.ts';
import { LanguageTabs, type Texts, compactTexts } from '@/ui/language-tabs.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { useArticle } from './api/get-article.ts';
import { articlesQueryKey, useArticles } from './api/get-articles.ts';
import { republishArticle } from './api/republish-article.ts';
import { saveArticle } from './api/save-article.ts';
import { unpublishArticle } from './api/unpublish-article.ts';
import { uploadCover } from './api/upload-cover.ts';
import { RichTextEditor, RichTextPreview } from './rich-text-editor.tsx';

const useT = defineStrings({
  en: {
    create: 'New article',
    all: 'All',
    news: 'News',
    notice: 'Notice',
    title: 'Title',
    summary: 'Summary',
    body: 'Body',
    kind: 'Kind',
    languages: 'Languages',
    state: 'State',
    scheduled: 'Scheduled',
    published: 'Published',
    unpublished: 'Unpublished',
    publishedAt: 'Publish time',
    publishHelp: 'Readers see it from this time (your local time).',
    cover: 'Cover image',
    coverUpload: 'Upload image',
    coverUrl: 'or an image address (https:// or /…)',
    coverNone: 'No cover',
    edit: 'Edit',
    unpublish: 'Unpublish',
    republish: 'Publish again',
    unpublishTitle: 'Unpublish “{title}”',
    unpublishHelp: 'Readers stop seeing it at once. You can publish it again later.',
    reason: 'Reason (kept in the audit log)',
    save: 'Save',
    cancel: 'Cancel',
    saved: 'Saved: {title}',
    preview: 'Preview',
    previewTitle:
      'Preview — what readers will see (the server removes anything its allow-list does not allow)',
    editTitle: 'Edit article',
    newTitle: 'New article',
    required: 'Required.',
    uploaded: 'Cover uploaded.',
  },
  'zh-CN': {
    create: '新建文章',
    all: '全部',
    news: '新闻',
    notice: '公告',
    title: '标题',
    summary: '摘要',
    body: '正文',
    kind: '类型',
    languages: '语言',
    state: '状态',
    scheduled: '待发布',
    published: '已发布',
    unpublished: '已下架',
    publishedAt: '发布时间',
    publishHelp: '读者从此时间起可见（您的本地时间）。',
    cover: '封面图片',
    coverUpload: '上传图片',
    coverUrl: '或填写图片地址（https:// 或 /…）',
    coverNone: '无封面',
    edit: '编辑',
    unpublish: '下架',
    republish: '重新发布',
    unpublishTitle: '下架“{title}”',
    unpublishHelp: '读者将立即看不到它。之后可以重新发布。',
    reason: '原因（记入审计日志）',
    save: '保存',
    cancel: '取消',
    saved: '已保存：{title}',
    preview: '预览',
    previewTitle: '预览——读者将看到的内容（服务器会移除其白名单之外的一切）',
    editTitle: '编辑文章',
    newTitle: '新建文章',
    required: '必填。',
    uploaded: '封面已上传。',
  },
});

const STATE_COLOURS: Record<ArticleState, string> = {
  scheduled: 'blue',
  published: 'green',
  unpublished: 'default',
};

interface EditorValues {
  kind: ArticleKind;
  publishedAt: string;
  cover?: string;
  title: Texts;
  summary: Texts;
  body: Texts;
}

/** News and notices: every article in every state; an editor with a tab per language; unpublish with a reason. */
export function NewsPage() {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ArticleKind | 'all'>('all');
  const [editing, setEditing] = useState<{ id?: string } | null>(null);
  const [unpublishing, setUnpublishing] = useState<ArticleAdminItem>();
  const list = useArticles(kind);
  const refresh = () => queryClient.invalidateQueries({ queryKey: articlesQueryKey });

  const setState = useMutation({
    mutationFn: (input: { id: string; publish: boolean; reason?: string }) =>
      input.publish
        ? republishArticle(input.id)
        : unpublishArticle({ id: input.id, reason: input.reason }),
    onSuccess: () => {
      setUnpublishing(undefined);
      void refresh();
    },
    onError: (error) => message.error(errorText(error)),
  });

  return (
    <>
      <QueryTable<ArticleAdminItem>
        query={list}
        create={{ label: t('create'), testId: 'news-create', onClick: () => setEditing({}) }}
        toolbar={
          <Segmented<ArticleKind | 'all'>
            value={kind}
            onChange={setKind}
            options={[
              { value: 'all', label: t('all') },
              { value: 'news', label: t('news') },
              { value: 'notice', label: t('notice') },
            ]}
          />
        }
        data-testid="news-table"
        columns={[
          {
            title: t('title'),
            dataIndex: 'title',
            render: (title: string, row) => (
              <Space>
                {row.cover && (
                  <Image
                    src={row.cover}
                    width={48}
                    height={30}
                    style={{ objectFit: 'cover', borderRadius: 4 }}
                    preview={false}
                  />
                )}
                {title}
              </Space>
            ),
          },
          {
            title: t('kind'),
            dataIndex: 'kind',
            width: 80,
            render: (value: ArticleKind) => <Tag>{t(value)}</Tag>,
          },
          {
            title: t('languages'),
            dataIndex: 'languages',
            width: 190,
            render: (languages: Language[]) => (
              <Space size={[2, 4]} wrap>
                {languages.map((l) => (
                  <Tooltip key={l} title={LANGUAGE_NAMES[l]}>
                    <Tag style={{ marginInlineEnd: 0 }}>{LANGUAGE_TAGS[l]}</Tag>
                  </Tooltip>
                ))}
              </Space>
            ),
          },
          {
            title: t('state'),
            dataIndex: 'state',
            width: 110,
            render: (state: ArticleState) => <Tag color={STATE_COLOURS[state]}>{t(state)}</Tag>,
          },
          {
            title: t('publishedAt'),
            dataIndex: 'publishedAt',
            width: 180,
            render: (at: string) => formatTime(at),
          },
          {
            title: '',
            key: 'actions',
            width: 200,
            render: (_: unknown, row) => (
              <Space>
                <Button size="small" onClick={() => setEditing({ id: row.id })}>
                  {t('edit')}
                </Button>
                {row.state === 'unpublished' ? (
                  <Button
                    size="small"
                    loading={setState.isPending}
                    onClick={() => setState.mutate({ id: row.id, publish: true })}
                  >
                    {t('republish')}
                  </Button>
                ) : (
                  <Button size="small" danger onClick={() => setUnpublishing(row)}>
                    {t('unpublish')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <ArticleEditor
          id={editing.id}
          onClose={() => setEditing(null)}
          onSaved={(title) => {
            setEditing(null);
            message.success(t('saved', { title }));
            void refresh();
          }}
        />
      )}
      <ReasonModal
        open={unpublishing !== undefined}
        title={unpublishing ? t('unpublishTitle', { title: unpublishing.title }) : ''}
        help={t('unpublishHelp')}
        label={t('reason')}
        okText={t('unpublish')}
        danger
        cancelText={t('cancel')}
        loading={setState.isPending}
        onCancel={() => setUnpublishing(undefined)}
        onSubmit={(reason) =>
          unpublishing && setState.mutate({ id: unpublishing.id, publish: false, reason })
        }
      />
    </>
  );
}

function ArticleEditor({
  id,
  onClose,
  onSaved,
}: {
  id?: string;
  onClose: () => void;
  onSaved: (title: string) => void;
}) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditorValues>();
  const [previewing, setPreviewing] = useState(false);
  const [previewLanguage, setPreviewLanguage] = useState<Language>('en');
  const [uploading, setUploading] = useState(false);
  const detail = useArticle(id);
  const cover = Form.useWatch('cover', form);
  const bodies = Form.useWatch('body', form) as Texts | undefined;

  const initial: EditorValues | undefined = id
    ? detail.data && {
        kind: detail.data.kind,
        publishedAt: toLocalInput(detail.data.publishedAt),
        cover: detail.data.cover ?? undefined,
        title: detail.data.title,
        summary: detail.data.summary,
        body: detail.data.body,
      }
    : {
        kind: 'news',
        publishedAt: toLocalInput(new Date().toISOString()),
        title: {},
        summary: {},
        body: {},
      };

  const save = useMutation({
    mutationFn: (values: EditorValues) =>
      saveArticle({
        ...(id ? { id } : {}),
        kind: values.kind,
        title: compactTexts(values.title),
        summary: compactTexts(values.summary),
        body: compactTexts(values.body),
        cover: values.cover?.trim() || null,
        publishedAt: fromLocalInput(values.publishedAt),
      }),
    onSuccess: (saved) => onSaved(saved.title),
    onError: (error) => {
      showFieldErrors(form, error);
      message.error(errorText(error));
    },
  });

  return (
    <Drawer
      open
      size={920}
      title={id ? t('editTitle') : t('newTitle')}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => setPreviewing(true)} data-testid="news-preview">
            {t('preview')}
          </Button>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => form.submit()}
            data-testid="news-save"
          >
            {t('save')}
          </Button>
        </Space>
      }
    >
      {detail.isError && <Alert type="error" title={(detail.error as Error).message} />}
      {initial && (
        <Form<EditorValues>
          form={form}
          layout="vertical"
          initialValues={initial}
          onFinish={(values) => save.mutate(values)}
          scrollToFirstError
        >
          <Space size="large" align="start" wrap>
            <Form.Item name="kind" label={t('kind')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'news', label: t('news') },
                  { value: 'notice', label: t('notice') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="publishedAt"
              label={t('publishedAt')}
              extra={t('publishHelp')}
              rules={[{ required: true, message: t('required') }]}
            >
              <Input type="datetime-local" data-testid="news-published-at" style={{ width: 220 }} />
            </Form.Item>
          </Space>
          <Form.Item label={t('cover')}>
            <Space align="start">
              {cover ? (
                <Image
                  src={cover}
                  width={160}
                  height={90}
                  style={{ objectFit: 'cover', borderRadius: 6 }}
                />
              ) : (
                <div
                  style={{
                    width: 160,
                    height: 90,
                    background: '#fafafa',
                    border: '1px dashed #d9d9d9',
                    borderRadius: 6,
                    display: 'grid',
                    placeItems: 'center',
                    color: '#999',
                  }}
                >
                  {t('coverNone')}
                </div>
              )}
              <Space orientation="vertical">
                <Upload
                  accept="image/jpeg,image/png,image/webp"
                  showUploadList={false}
                  customRequest={({ file }) => {
                    setUploading(true);
                    uploadCover(file as File)
                      .then((uploaded) => {
                        form.setFieldValue('cover', uploaded.url);
                        message.success(t('uploaded'));
                      })
                      .catch((error: unknown) => message.error(errorText(error)))
                      .finally(() => setUploading(false));
                  }}
                >
                  <Button loading={uploading} data-testid="news-cover-upload">
                    {t('coverUpload')}
                  </Button>
                </Upload>
                <Form.Item name="cover" noStyle>
                  <Input placeholder={t('coverUrl')} style={{ width: 420 }} allowClear />
                </Form.Item>
              </Space>
            </Space>
          </Form.Item>
          <LanguageTabs
            testId="news-languages"
            fields={[
              {
                name: 'title',
                label: t('title'),
                max: ARTICLE_TITLE_MAX,
                render: (language) => (
                  <Input data-testid={`news-title-${language}`} maxLength={ARTICLE_TITLE_MAX} />
                ),
              },
              {
                name: 'summary',
                label: t('summary'),
                max: ARTICLE_SUMMARY_MAX,
                render: (language) => (
                  <Input.TextArea
                    data-testid={`news-summary-${language}`}
                    rows={2}
                    maxLength={ARTICLE_SUMMARY_MAX}
                  />
                ),
              },
              {
                name: 'body',
                label: t('body'),
                max: ARTICLE_BODY_MAX,
                render: (language) => <RichTextEditor testId={`news-body-${language}`} />,
              },
            ]}
          />
        </Form>
      )}
      <Modal
        open={previewing}
        title={t('previewTitle')}
        footer={null}
        width={520}
        onCancel={() => setPreviewing(false)}
      >
        <Segmented<Language>
          style={{ marginBottom: 12 }}
          value={previewLanguage}
          onChange={setPreviewLanguage}
          options={LANGUAGES.filter((l) => l === 'en' || bodies?.[l]).map((l) => ({
            value: l,
            label: LANGUAGE_NAMES[l],
          }))}
        />
        <RichTextPreview html={bodies?.[previewLanguage] || bodies?.en || ''} />
      </Modal>
    </Drawer>
  );
}
