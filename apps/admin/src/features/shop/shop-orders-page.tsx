import type { AdminShopOrder } from '@tradewind/contract/shop';
import { Alert, App, Button, Form, Input, Modal, Segmented, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { type ShopQueueStatus, useShopOrders } from './api/get-shop-orders.ts';
import { useShipOrder } from './api/ship-order.ts';

const useT = defineStrings({
  en: {
    hint: 'Physical items users bought with points. Pack the item, send it to the address shown, then mark the order shipped with a tracking note: the user sees the note in their shop orders.',
    awaiting: 'Awaiting shipment',
    shipped: 'Shipped',
    order: 'Order',
    uid: 'UID',
    item: 'Item',
    points: 'Points',
    recipient: 'Recipient',
    address: 'Address',
    ordered: 'Ordered',
    tracking: 'Tracking note',
    shippedBy: 'Shipped by',
    actions: 'Actions',
    ship: 'Mark shipped',
    shipTitle: 'Mark order #{id} shipped',
    trackingHelp: 'Carrier and tracking number, as the user should read it. Kept in the audit log.',
    required: 'Required.',
    confirm: 'Mark shipped',
    cancel: 'Cancel',
    done: 'Order #{id} marked shipped.',
    empty: 'No orders here.',
    item_usdt_1: '1 USDT',
    item_usdt_5: '5 USDT',
    item_stickers: 'Sticker pack',
    item_mug: 'Mug',
    item_tshirt: 'T-shirt',
  },
  'zh-CN': {
    hint: '用户用积分兑换的实物。打包后寄往所示地址，再填写物流信息将订单标记为已发货：用户会在兑换订单中看到该信息。',
    awaiting: '待发货',
    shipped: '已发货',
    order: '订单',
    uid: 'UID',
    item: '商品',
    points: '积分',
    recipient: '收货人',
    address: '地址',
    ordered: '下单时间',
    tracking: '物流信息',
    shippedBy: '发货人',
    actions: '操作',
    ship: '标记发货',
    shipTitle: '将订单 #{id} 标记为已发货',
    trackingHelp: '承运商和运单号，按用户应看到的样子填写。记入审计日志。',
    required: '必填。',
    confirm: '标记发货',
    cancel: '取消',
    done: '订单 #{id} 已标记为发货。',
    empty: '暂无订单。',
    item_usdt_1: '1 USDT',
    item_usdt_5: '5 USDT',
    item_stickers: '贴纸套装',
    item_mug: '马克杯',
    item_tshirt: 'T 恤',
  },
});

/** The queue of physical points-shop orders: ship one with a tracking note (issue 32). */
export function ShopOrdersPage() {
  const t = useT();
  const language = useLanguage();
  const { message } = App.useApp();
  const [status, setStatus] = useState<ShopQueueStatus>('awaiting_shipment');
  const orders = useShopOrders(status);
  const ship = useShipOrder();
  const [shipping, setShipping] = useState<AdminShopOrder | null>(null);
  const [form] = Form.useForm<{ trackingNote: string }>();
  const regions = new Intl.DisplayNames([language], { type: 'region' });

  const submit = ({ trackingNote }: { trackingNote: string }) => {
    if (!shipping) return;
    ship.mutate(
      { id: shipping.id, trackingNote: trackingNote.trim() },
      {
        onSuccess: (order) => {
          setShipping(null);
          form.resetFields();
          message.success(t('done', { id: order.id }));
        },
        onError: (error) => {
          showFieldErrors(form, error);
          message.error(errorText(error));
        },
      },
    );
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('hint')} />
      <Segmented<ShopQueueStatus>
        value={status}
        onChange={setStatus}
        options={[
          { value: 'awaiting_shipment', label: t('awaiting') },
          { value: 'shipped', label: t('shipped') },
        ]}
      />
      {orders.error ? <Alert type="error" title={errorText(orders.error)} /> : null}
      <Table<AdminShopOrder>
        data-testid="shop-orders"
        rowKey="id"
        loading={orders.isPending}
        dataSource={orders.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: t('empty') }}
        columns={[
          { title: t('order'), dataIndex: 'id', render: (id: string) => `#${id}` },
          { title: t('uid'), dataIndex: 'uid' },
          {
            title: t('item'),
            dataIndex: 'item',
            render: (item: AdminShopOrder['item']) => t(`item_${item}`),
          },
          { title: t('points'), dataIndex: 'pointsCost' },
          {
            title: t('recipient'),
            key: 'recipient',
            render: (_, order) =>
              order.address ? `${order.address.name} · ${order.address.phone}` : '—',
          },
          {
            title: t('address'),
            key: 'address',
            render: (_, order) =>
              order.address
                ? `${regions.of(order.address.region) ?? order.address.region} · ${order.address.address}`
                : '—',
          },
          { title: t('ordered'), dataIndex: 'createdAt', render: (at: string) => formatTime(at) },
          status === 'shipped'
            ? {
                title: t('tracking'),
                key: 'tracking',
                render: (_, order) => (
                  <Space direction="vertical" size={0}>
                    <span>{order.trackingNote}</span>
                    <Tag>{order.shippedBy ?? '—'}</Tag>
                  </Space>
                ),
              }
            : {
                title: t('actions'),
                key: 'actions',
                render: (_, order) => (
                  <Button
                    type="primary"
                    data-testid={`ship-${order.id}`}
                    onClick={() => setShipping(order)}
                  >
                    {t('ship')}
                  </Button>
                ),
              },
        ]}
      />
      <Modal
        open={shipping !== null}
        title={t('shipTitle', { id: shipping?.id ?? '' })}
        okText={t('confirm')}
        cancelText={t('cancel')}
        confirmLoading={ship.isPending}
        onCancel={() => setShipping(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item
            name="trackingNote"
            label={t('tracking')}
            extra={t('trackingHelp')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input.TextArea data-testid="ship-tracking" rows={2} maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
