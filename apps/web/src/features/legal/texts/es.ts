import type { LegalTexts } from './types.ts';

export const texts: LegalTexts = {
  privacy: {
    title: 'Política de privacidad',
    updated: 'Última actualización: 21 de noviembre de 2026',
    sections: [
      {
        heading: 'Quiénes somos',
        paragraphs: [
          'Tradewind gestiona este servicio de operaciones y billetera. Esta política explica qué datos personales recopilamos cuando lo usas, por qué, durante cuánto tiempo los conservamos y qué derechos tienes.',
        ],
      },
      {
        heading: 'Qué datos recopilamos',
        paragraphs: [
          'Datos de la cuenta: tu dirección de correo electrónico o número de teléfono, tu contraseña (almacenada solo como hash irreversible), tu apodo y tu avatar, y el código de invitación con el que te registraste.',
          'Datos de verificación de identidad (KYC): tu nombre, nacionalidad, tipo y número de documento, y fotos de tu documento y de tu rostro. Estos archivos son privados: solo tú y el personal que los revisa pueden abrirlos.',
          'Datos financieros: saldos, depósitos, retiros, transferencias, conversiones, órdenes, y las direcciones y tarjetas bancarias que usas para ellos.',
          'Datos técnicos: los dispositivos desde los que inicias sesión, las direcciones IP, las horas de inicio de sesión y el idioma que elegiste.',
        ],
      },
      {
        heading: 'Para qué los usamos',
        paragraphs: [
          'Para prestar el servicio: custodiar tu cuenta y tus fondos, realizar las operaciones que solicites y mostrarte tu historial.',
          'Para proteger tu cuenta: códigos de verificación, gestión de sesiones, detección de inicios de sesión inusuales y prevención del fraude.',
          'Para cumplir obligaciones legales, como la verificación de identidad y la conservación de registros propia de los servicios financieros.',
          'No vendemos tus datos personales ni los usamos con fines publicitarios.',
        ],
      },
      {
        heading: 'Con quién los compartimos',
        paragraphs: [
          'Solo con los proveedores que necesitamos para prestar el servicio (alojamiento, envío de correos electrónicos y SMS, redes de cadena de bloques para las transferencias en cadena) y con las autoridades cuando la ley lo exija. Cada proveedor recibe solo lo que necesita para su tarea.',
        ],
      },
      {
        heading: 'Cuánto tiempo los conservamos',
        paragraphs: [
          'Los registros de la cuenta y los financieros se conservan mientras exista tu cuenta y, después, durante el plazo que exija la normativa financiera. Los códigos de verificación caducan a los 10 minutos. Las sesiones cerradas se conservan solo como registro de seguridad.',
        ],
      },
      {
        heading: 'Tus derechos',
        paragraphs: [
          'Puedes ver y corregir tu perfil en la aplicación, cerrar la sesión de cualquier dispositivo y solicitarnos una copia de tus datos o su eliminación cuando la ley lo permita. Para ello, contacta con atención al cliente en la aplicación.',
        ],
      },
      {
        heading: 'Seguridad',
        paragraphs: [
          'Las contraseñas se guardan como hash con argon2id, los tokens de sesión se almacenan solo como hashes, las conexiones están cifradas y cada operación sobre tu saldo se registra en un libro contable de partida doble que nadie puede modificar.',
        ],
      },
      {
        heading: 'Cambios',
        paragraphs: [
          'Si esta política cambia, mostraremos aquí la nueva versión con su fecha y te avisaremos en la aplicación antes de que entre en vigor.',
        ],
      },
    ],
  },
  terms: {
    title: 'Términos del servicio',
    updated: 'Aún no publicados',
    sections: [
      {
        heading: 'Pendiente de publicación',
        paragraphs: [
          'Los términos del servicio se publicarán aquí antes de que el servicio se abra al público. Mientras tanto, lee la política de privacidad.',
        ],
      },
    ],
  },
};
