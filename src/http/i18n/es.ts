import type { Catalog } from './index.js';

/** Spanish texts of discovery, `/doc` and the API reference page, keyed by the English source text. */
export const es: Catalog = {
  'A category or tag as shown inside an event.': 'Una categoría o etiqueta tal como aparece dentro de un evento.',
  'A date split into zero-padded strings.': 'Una fecha dividida en cadenas rellenadas con ceros.',
  'A featured image; keys without a value are left out.': 'Una imagen destacada; se omiten las claves sin valor.',
  'A list: comma-separated values or the parameter repeated.':
    'Una lista: valores separados por comas o el parámetro repetido.',
  'A page of event categories.': 'Una página de categorías de eventos.',
  'A page of event tags.': 'Una página de etiquetas de eventos.',
  'A page of events.': 'Una página de eventos.',
  'A page of organizers.': 'Una página de organizadores.',
  'A page of venues.': 'Una página de lugares.',
  'A parameter is missing or invalid, or a linked record does not exist.':
    'Falta un parámetro o no es válido, o un registro vinculado no existe.',
  'A password that protects the event (write-only); an empty string removes it.':
    'Una contraseña que protege el evento (solo escritura); una cadena vacía la elimina.',
  'A route with its methods and endpoint arguments.': 'Una ruta con sus métodos y los argumentos de sus endpoints.',
  'A venue; empty values are left out.': 'Un lugar; se omiten los valores vacíos.',
  'Additional fields (always empty).': 'Campos adicionales (siempre vacío).',
  'Always 0.': 'Siempre 0.',
  'Always empty.': 'Siempre vacío.',
  'Always raw.': 'Siempre raw.',
  'An OpenAPI 3.1 document of the interface.': 'Un documento OpenAPI 3.1 de la interfaz.',
  'An alphanumeric identifier for the term unique to its type.':
    'Un identificador alfanumérico del término, único dentro de su tipo.',
  'An application password of a user, sent with HTTP Basic authentication. Without credentials the API answers as an anonymous visitor.':
    'Una contraseña de aplicación de un usuario, enviada con autenticación HTTP Basic. Sin credenciales, la API responde como a un visitante anónimo.',
  'An error in the WordPress shape.': 'Un error con la forma de WordPress.',
  'An event category or tag.': 'Una categoría o etiqueta de eventos.',
  'An event.': 'Un evento.',
  'An organizer; empty values are left out.': 'Un organizador; se omiten los valores vacíos.',
  'Author user ID, as a string.': 'ID del usuario autor, como cadena.',
  'Calendar Server API reference': 'Referencia de la API de Calendar Server',
  'Calendar Server REST API': 'API REST de Calendar Server',
  'City.': 'Ciudad.',
  'Country.': 'País.',
  'Create a category': 'Crear una categoría',
  'Create an organizer (or reuse one with the same name).':
    'Crear un organizador (o reutilizar uno con el mismo nombre).',
  'Create a tag': 'Crear una etiqueta',
  'Create a venue (or reuse one with the same name).': 'Crear un lugar (o reutilizar uno con el mismo nombre).',
  'Create an event': 'Crear un evento',
  'Created.': 'Creado.',
  'Currency code.': 'Código de moneda.',
  'Currency symbol inferred from the cost.': 'Símbolo de moneda deducido del coste.',
  'Delete a category permanently': 'Eliminar una categoría definitivamente',
  'Delete a tag permanently': 'Eliminar una etiqueta definitivamente',
  'Describe every route of the namespace.': 'Describe todas las rutas del espacio de nombres.',
  'Describe the whole calendar/events/v1 interface as an OpenAPI 3.1 document.':
    'Describe toda la interfaz calendar/events/v1 como un documento OpenAPI 3.1.',
  'Description (HTML).': 'Descripción (HTML).',
  'Display cost.': 'Coste mostrado.',
  'E-mail address.': 'Dirección de correo electrónico.',
  'End, UTC.': 'Fin, UTC.',
  'End, in the event time zone.': 'Fin, en la zona horaria del evento.',
  'Ensure result set excludes specific IDs.': 'Excluir del resultado los ID indicados.',
  'Equals the term ID.': 'Igual al ID del término.',
  'Error data; holds at least the HTTP status.': 'Datos del error; contiene al menos el estado HTTP.',
  'Event categories.': 'Categorías del evento.',
  'Event categories: IDs or names, as a list or a comma-separated string; unknown names create categories.':
    'Categorías del evento: ID o nombres, como lista o cadena separada por comas; los nombres desconocidos crean categorías.',
  'Event tags.': 'Etiquetas del evento.',
  'Event tags: IDs or names, as a list or a comma-separated string; unknown names create tags.':
    'Etiquetas del evento: ID o nombres, como lista o cadena separada por comas; los nombres desconocidos crean etiquetas.',
  'Event title.': 'Título del evento.',
  'Event website.': 'Sitio web del evento.',
  'Every route of the namespace with its arguments.': 'Todas las rutas del espacio de nombres con sus argumentos.',
  'Excerpt (HTML).': 'Extracto (HTML).',
  'Featured image, or false.': 'Imagen destacada, o false.',
  'File extension, e.g. jpg.': 'Extensión del archivo, p. ej. jpg.',
  'File size in bytes.': 'Tamaño del archivo en bytes.',
  'Filter by tickets; ticketing is not available, so only false is accepted.':
    'Filtrar por entradas; la venta de entradas no está disponible, así que solo se acepta false.',
  'Four-digit year.': 'Año de cuatro cifras.',
  'Generated sizes keyed by size name.': 'Tamaños generados, indexados por nombre de tamaño.',
  'Global ID: site host and path plus ?id= and the record ID.':
    'ID global: host y ruta del sitio, más ?id= y el ID del registro.',
  'HTML description of the term.': 'Descripción HTML del término.',
  'HTML title for the term.': 'Título HTML del término.',
  'HTTP status.': 'Estado HTTP.',
  'Height in pixels.': 'Alto en píxeles.',
  'How many categories to return per page (at most the max_per_page setting).':
    'Cuántas categorías devolver por página (como máximo el ajuste max_per_page).',
  'How many events to return per page (at most the max_per_page setting).':
    'Cuántos eventos devolver por página (como máximo el ajuste max_per_page).',
  'How many organizers to return per page (at most the max_per_page setting).':
    'Cuántos organizadores devolver por página (como máximo el ajuste max_per_page).',
  'How many tags to return per page (at most the max_per_page setting).':
    'Cuántas etiquetas devolver por página (como máximo el ajuste max_per_page).',
  'How many venues to return per page (at most the max_per_page setting).':
    'Cuántos lugares devolver por página (como máximo el ajuste max_per_page).',
  'Human-readable message (English).': 'Mensaje legible (en inglés).',
  'Hypermedia links (single-term responses only).': 'Enlaces hipermedia (solo en respuestas de un único término).',
  'ID of the image record.': 'ID del registro de la imagen.',
  'Last change, UTC.': 'Última modificación, UTC.',
  'Last change, site time zone.': 'Última modificación, zona horaria del sitio.',
  'Latitude in decimal degrees.': 'Latitud en grados decimales.',
  'Latitude of the centre of a venue distance search; needs geoloc_lng.':
    'Latitud del centro de una búsqueda por distancia al lugar; requiere geoloc_lng.',
  'Limit result set to specific IDs.': 'Limitar el resultado a los ID indicados.',
  'Limit result set to terms assigned to a specific event (alias of post).':
    'Limitar el resultado a los términos asignados a un evento concreto (alias de post).',
  'Limit result set to terms assigned to a specific event.':
    'Limitar el resultado a los términos asignados a un evento concreto.',
  'Limit result set to terms assigned to a specific parent.':
    'Limitar el resultado a los términos con un superior concreto.',
  'Limit result set to terms with a specific slug.': 'Limitar el resultado a los términos con un slug concreto.',
  'Limit results to those matching a string.': 'Limitar el resultado a los que coinciden con una cadena.',
  'Links to the next and previous pages (RFC 8288).': 'Enlaces a las páginas siguiente y anterior (RFC 8288).',
  'List categories': 'Listar categorías',
  'List events': 'Listar eventos',
  'List organizers.': 'Listar organizadores.',
  'List tags': 'Listar etiquetas',
  'List venues.': 'Listar lugares.',
  'Longitude in decimal degrees.': 'Longitud en grados decimales.',
  'Longitude of the centre of a venue distance search; needs geoloc_lat.':
    'Longitud del centro de una búsqueda por distancia al lugar; requiere geoloc_lat.',
  'MIME type of the file.': 'Tipo MIME del archivo.',
  'Machine-readable error code.': 'Código de error legible por máquinas.',
  'Manage calendar events and their venues, organizers, categories and tags. Compatible with the REST API of The Events Calendar (tribe/events/v1).':
    'Gestiona eventos de calendario y sus lugares, organizadores, categorías y etiquetas. Compatible con la API REST de The Events Calendar (tribe/events/v1).',
  'Move an organizer to the trash.': 'Mover un organizador a la papelera.',
  'Move a venue to the trash.': 'Mover un lugar a la papelera.',
  'Move an event to the trash': 'Mover un evento a la papelera',
  'Move an event to the trash by slug': 'Mover un evento a la papelera por slug',
  'No such route or record, or a page past the end.':
    'La ruta o el registro no existe, o la página está más allá del final.',
  'Number of matching records over all pages.': 'Número de registros coincidentes en todas las páginas.',
  'Number of pages.': 'Número de páginas.',
  'Number of published events carrying the term.': 'Número de eventos publicados que llevan el término.',
  'One generated size of an image.': 'Un tamaño generado de una imagen.',
  'Only events at one of these venues (IDs).': 'Solo los eventos en uno de estos lugares (ID).',
  'Only events by one of these organizers (IDs).': 'Solo los eventos de uno de estos organizadores (ID).',
  'Only events ending after this date.': 'Solo los eventos que terminan después de esta fecha.',
  'Only events ending before this date.': 'Solo los eventos que terminan antes de esta fecha.',
  'Only events ending on or before this date (whole days unless strict_dates).':
    'Solo los eventos que terminan en esta fecha o antes (días completos salvo con strict_dates).',
  'Only events in one of these categories (IDs or slugs; sub-categories included), as a list or a comma-separated string.':
    'Solo los eventos de una de estas categorías (ID o slugs; subcategorías incluidas), como lista o cadena separada por comas.',
  'Only events starting after this date.': 'Solo los eventos que empiezan después de esta fecha.',
  'Only events starting before this date.': 'Solo los eventos que empiezan antes de esta fecha.',
  'Only events starting on or after this date (whole days unless strict_dates).':
    'Solo los eventos que empiezan en esta fecha o después (días completos salvo con strict_dates).',
  'Only events whose parent is this event.': 'Solo los eventos cuyo evento superior es este.',
  'Only events whose title, excerpt or description contain these words ("quoted phrases" kept together, -word excluded).':
    'Solo los eventos cuyo título, extracto o descripción contienen estas palabras (las "frases entre comillas" se mantienen juntas, -palabra excluye).',
  'Only events with one of these tags (IDs or slugs), as a list or a comma-separated string.':
    'Solo los eventos con una de estas etiquetas (ID o slugs), como lista o cadena separada por comas.',
  'Only events with these IDs (date filters then apply only through starts_*/ends_*).':
    'Solo los eventos con estos ID (los filtros de fecha se aplican entonces solo mediante starts_*/ends_*).',
  'Only events with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit events.':
    'Solo los eventos con estos estados (lista separada por comas); `any` para todos los estados salvo la papelera. Los estados no públicos requieren el permiso de editar eventos.',
  'Only organizers linked to this event.': 'Solo los organizadores vinculados a este evento.',
  'Only organizers whose name, description or details contain these words.':
    'Solo los organizadores cuyo nombre, descripción o datos contienen estas palabras.',
  'Only organizers with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit organizers.':
    'Solo los organizadores con estos estados (lista separada por comas); `any` para todos los estados salvo la papelera. Los estados no públicos requieren el permiso de editar organizadores.',
  'Only venues linked to this event.': 'Solo los lugares vinculados a este evento.',
  'Only venues whose name, description or details contain these words.':
    'Solo los lugares cuyo nombre, descripción o datos contienen estas palabras.',
  'Only venues with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit venues.':
    'Solo los lugares con estos estados (lista separada por comas); `any` para todos los estados salvo la papelera. Los estados no públicos requieren el permiso de editar lugares.',
  'Order sort attribute ascending or descending.': 'Orden ascendente o descendente.',
  'Organizer name.': 'Nombre del organizador.',
  'Organizers, in link order.': 'Organizadores, en el orden de vinculación.',
  'Organizers: IDs, or organizer data objects to create organizers from, as a list or a comma-separated string.':
    'Organizadores: ID u objetos con datos de organizadores para crearlos, como lista o cadena separada por comas.',
  'Parent category ID, 0 at the top level (categories only).':
    'ID de la categoría superior, 0 en el nivel superior (solo categorías).',
  'Parent category ID, 0 at the top level.': 'ID de la categoría superior, 0 en el nivel superior.',
  'Phone number.': 'Número de teléfono.',
  'Postal code.': 'Código postal.',
  'Province.': 'Provincia.',
  'Public archive URL of the term.': 'URL pública del archivo del término.',
  'Public page URL.': 'URL de la página pública.',
  'Publication date, UTC.': 'Fecha de publicación, UTC.',
  'Publication date, site time zone.': 'Fecha de publicación, zona horaria del sitio.',
  'Publication status of the record.': 'Estado de publicación del registro.',
  'REST URL of the event.': 'URL REST del evento.',
  'REST URL of the next page.': 'URL REST de la página siguiente.',
  'REST URL of the parent category.': 'URL REST de la categoría superior.',
  'REST URL of the previous page.': 'URL REST de la página anterior.',
  'REST URL of the term collection.': 'URL REST de la colección de términos.',
  'REST URL of the term.': 'URL REST del término.',
  'REST URL of this page.': 'URL REST de esta página.',
  'REST URLs of the term.': 'URL REST del término.',
  'Radius of the venue distance search, in the unit of the geoloc_unit setting (default: the geoloc_radius setting).':
    'Radio de la búsqueda por distancia al lugar, en la unidad del ajuste geoloc_unit (por defecto: el ajuste geoloc_radius).',
  'Read a category': 'Leer una categoría',
  'Read an organizer.': 'Leer un organizador.',
  'Read a tag': 'Leer una etiqueta',
  'Read a venue.': 'Leer un lugar.',
  'Read an event': 'Leer un evento',
  'Read an event by slug': 'Leer un evento por slug',
  'Record ID.': 'ID del registro.',
  'Scope of the description; every value gives the same document.':
    'Alcance de la descripción; cualquier valor da el mismo documento.',
  'Sort collection by term attribute.': 'Ordenar la colección por un atributo del término.',
  'Stable code of the reason: invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type; or the code of an error such as event-tickets-not-active.':
    'Código estable del motivo: invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type; o el código de un error como event-tickets-not-active.',
  'Start, UTC.': 'Inicio, UTC.',
  'Start, in the event time zone.': 'Inicio, en la zona horaria del evento.',
  'State or province.': 'Estado o provincia.',
  'State.': 'Estado.',
  'Street address.': 'Dirección postal.',
  'Success.': 'Correcto.',
  'Taxonomy: tribe_events_cat for categories, post_tag for tags.':
    'Taxonomía: tribe_events_cat para categorías, post_tag para etiquetas.',
  'Term ID.': 'ID del término.',
  'Term description (HTML).': 'Descripción del término (HTML).',
  'Term name.': 'Nombre del término.',
  'Term slug.': 'Slug del término.',
  "The ID of the event's author.": 'El ID del autor del evento.',
  "The ID of the organizer's author.": 'El ID del autor del organizador.',
  "The ID of the venue's author.": 'El ID del autor del lugar.',
  'The cost values found, as strings, lowest first.':
    'Los valores de coste encontrados, como cadenas, de menor a mayor.',
  'The credentials are wrong, or the operation needs an authenticated user.':
    'Las credenciales son incorrectas, o la operación requiere un usuario autenticado.',
  'The event cost: a text such as "10", "10-20", "Free" or "$5.50", a number, or a list of them.':
    'El coste del evento: un texto como "10", "10-20", "Free" o "$5.50", un número, o una lista de ellos.',
  'The event description (HTML); an empty string clears it.':
    'La descripción del evento (HTML); una cadena vacía la borra.',
  'The event end date and time, in the event time zone.':
    'La fecha y hora de fin del evento, en la zona horaria del evento.',
  'The event excerpt (HTML); an empty string clears it.': 'El extracto del evento (HTML); una cadena vacía lo borra.',
  'The event publication date in UTC.': 'La fecha de publicación del evento en UTC.',
  'The event publication date, in the site time zone.':
    'La fecha de publicación del evento, en la zona horaria del sitio.',
  'The event slug.': 'El slug del evento.',
  'The event start date and time, in the event time zone.':
    'La fecha y hora de inicio del evento, en la zona horaria del evento.',
  'The event status: publish, future, draft, pending or private.':
    'El estado del evento: publish, future, draft, pending o private.',
  'The event time zone: an IANA name (America/New_York), UTC, or an offset such as UTC+5 or UTC-3.5; empty for the site time zone.':
    'La zona horaria del evento: un nombre IANA (America/New_York), UTC o un desfase como UTC+5 o UTC-3.5; vacía para la zona horaria del sitio.',
  'The event title.': 'El título del evento.',
  'The event website: an http or https URL, or empty.': 'El sitio web del evento: una URL http o https, o vacío.',
  "The event's featured image: an image ID or an image URL.":
    'La imagen destacada del evento: un ID de imagen o una URL de imagen.',
  'The global ID followed by any imported lineage IDs.': 'El ID global seguido de los ID de linaje importados.',
  'The namespace to describe.': 'El espacio de nombres que se describe.',
  'The organizer description (HTML).': 'La descripción del organizador (HTML).',
  'The organizer e-mail address.': 'La dirección de correo electrónico del organizador.',
  'The organizer name.': 'El nombre del organizador.',
  'The organizer phone number.': 'El número de teléfono del organizador.',
  'The organizer publication date in UTC.': 'La fecha de publicación del organizador en UTC.',
  'The organizer publication date, in the site time zone.':
    'La fecha de publicación del organizador, en la zona horaria del sitio.',
  'The organizer slug.': 'El slug del organizador.',
  'The organizer status: publish, future, draft, pending or private.':
    'El estado del organizador: publish, future, draft, pending o private.',
  'The organizer website (an http or https URL).': 'El sitio web del organizador (una URL http o https).',
  "The organizer's featured image: an image ID or an image URL.":
    'La imagen destacada del organizador: un ID de imagen o una URL de imagen.',
  'The page of categories to return.': 'La página de categorías que se devuelve.',
  'The page of events to return.': 'La página de eventos que se devuelve.',
  'The page of organizers to return.': 'La página de organizadores que se devuelve.',
  'The page of tags to return.': 'La página de etiquetas que se devuelve.',
  'The page of venues to return.': 'La página de lugares que se devuelve.',
  'The parameter, its value and what would be accepted (English).':
    'El parámetro, su valor y lo que se aceptaría (en inglés).',
  'The parent term ID.': 'El ID del término superior.',
  'The parent term ID; 0 moves the category to the top level.':
    'El ID del término superior; 0 mueve la categoría al nivel superior.',
  'The parts of an event cost.': 'Las partes del coste de un evento.',
  'The password of a password-protected event.': 'La contraseña de un evento protegido con contraseña.',
  'The record ID.': 'El ID del registro.',
  'The record could not be changed or deleted.': 'No se pudo modificar ni eliminar el registro.',
  'The record is already in the trash.': 'El registro ya está en la papelera.',
  'The record slug.': 'El slug del registro.',
  'The user may not perform this operation on this record.':
    'El usuario no puede realizar esta operación sobre este registro.',
  'The venue ZIP or postal code.': 'El código postal del lugar.',
  'The venue city.': 'La ciudad del lugar.',
  'The venue country (free text).': 'El país del lugar (texto libre).',
  'The venue description (HTML).': 'La descripción del lugar (HTML).',
  'The venue latitude in decimal degrees (-90 to 90).': 'La latitud del lugar en grados decimales (de -90 a 90).',
  'The venue longitude in decimal degrees (-180 to 180).': 'La longitud del lugar en grados decimales (de -180 a 180).',
  'The venue name.': 'El nombre del lugar.',
  'The venue phone number.': 'El número de teléfono del lugar.',
  'The venue province.': 'La provincia del lugar.',
  'The venue publication date in UTC.': 'La fecha de publicación del lugar en UTC.',
  'The venue publication date, in the site time zone.':
    'La fecha de publicación del lugar, en la zona horaria del sitio.',
  'The venue slug.': 'El slug del lugar.',
  'The venue state or province; derived from state/province when not given.':
    'El estado o la provincia del lugar; se deduce de state/province si no se indica.',
  'The venue state.': 'El estado del lugar.',
  'The venue status: publish, future, draft, pending or private.':
    'El estado del lugar: publish, future, draft, pending o private.',
  'The venue street address.': 'La dirección postal del lugar.',
  'The venue website (an http or https URL).': 'El sitio web del lugar (una URL http o https).',
  "The venue's featured image: an image ID or an image URL.":
    'La imagen destacada del lugar: un ID de imagen o una URL de imagen.',
  'The venue; a list when there are several, an empty list when none.':
    'El lugar; una lista cuando hay varios, una lista vacía cuando no hay ninguno.',
  'Time zone abbreviation at the start.': 'Abreviatura de la zona horaria al inicio.',
  'Time zone of the event.': 'Zona horaria del evento.',
  'Too many failed logins or requests; retry after the seconds given in the Retry-After header.':
    'Demasiados inicios de sesión fallidos o solicitudes; reintente tras los segundos indicados en la cabecera Retry-After.',
  'Truthy: only organizers linked to events; otherwise only organizers linked to none.':
    'Verdadero: solo los organizadores vinculados a eventos; si no, solo los que no están vinculados a ninguno.',
  'Truthy: only organizers linked to upcoming events.':
    'Verdadero: solo los organizadores vinculados a eventos próximos.',
  'Truthy: only venues linked to events; otherwise only venues linked to none.':
    'Verdadero: solo los lugares vinculados a eventos; si no, solo los que no están vinculados a ninguno.',
  'Truthy: only venues linked to upcoming events.': 'Verdadero: solo los lugares vinculados a eventos próximos.',
  'Two-digit day of the month.': 'Día del mes con dos cifras.',
  'Two-digit hour (24-hour clock).': 'Hora con dos cifras (formato de 24 horas).',
  'Two-digit minutes.': 'Minutos con dos cifras.',
  'Two-digit month.': 'Mes con dos cifras.',
  'Two-digit seconds.': 'Segundos con dos cifras.',
  'URL of the file.': 'URL del archivo.',
  'URL of the full-size image.': 'URL de la imagen a tamaño completo.',
  'URL slug.': 'Slug de la URL.',
  'Unique identifier for the category.': 'Identificador único de la categoría.',
  'Unique identifier for the tag.': 'Identificador único de la etiqueta.',
  'Unique identifier of the event.': 'Identificador único del evento.',
  'Unique identifier of the organizer.': 'Identificador único del organizador.',
  'Unique identifier of the venue.': 'Identificador único del lugar.',
  'Update a category': 'Actualizar una categoría',
  'Update an organizer by ID; only the fields sent change.':
    'Actualizar un organizador por ID; solo cambian los campos enviados.',
  'Update an organizer by slug; only the fields sent change.':
    'Actualizar un organizador por slug; solo cambian los campos enviados.',
  'Update a tag': 'Actualizar una etiqueta',
  'Update a venue by ID; only the fields sent change.': 'Actualizar un lugar por ID; solo cambian los campos enviados.',
  'Update a venue by slug; only the fields sent change.':
    'Actualizar un lugar por slug; solo cambian los campos enviados.',
  'Update an event': 'Actualizar un evento',
  'Update an event by slug': 'Actualizar un evento por slug',
  'Venue name.': 'Nombre del lugar.',
  'Venues: IDs, or venue data objects to create venues from, as one value, a list or a comma-separated string.':
    'Lugares: ID u objetos con datos de lugares para crearlos, como un valor, una lista o una cadena separada por comas.',
  'Website URL.': 'URL del sitio web.',
  'When true (1, true, on, yes), the dates are used with their times; otherwise whole days are included.':
    'Si es verdadero (1, true, on, yes), las fechas se usan con sus horas; si no, se incluyen días completos.',
  'Where the currency symbol goes.': 'Dónde se coloca el símbolo de moneda.',
  'Whether the event is featured.': 'Si el evento es destacado.',
  'Whether the event is hidden from listings.': 'Si el evento está oculto en los listados.',
  'Whether the event is sticky in month view.': 'Si el evento está fijado en la vista mensual.',
  'Whether the event lasts the whole day.': 'Si el evento dura todo el día.',
  'Whether the event sticks in calendar views.': 'Si el evento queda fijado en las vistas del calendario.',
  'Whether to hide terms not assigned to any published event.':
    'Si se ocultan los términos no asignados a ningún evento publicado.',
  'Whether to hide the event from event listings.': 'Si se oculta el evento en los listados de eventos.',
  'Whether to show a link to a map of the venue (a truthy string or a boolean; default true).':
    'Si se muestra un enlace a un mapa del lugar (una cadena verdadera o un booleano; por defecto true).',
  'Whether to show a link to a map of the venue.': 'Si se muestra un enlace a un mapa del lugar.',
  'Whether to show a map link.': 'Si se muestra un enlace al mapa.',
  'Whether to show a map of the venue (a truthy string or a boolean; default true).':
    'Si se muestra un mapa del lugar (una cadena verdadera o un booleano; por defecto true).',
  'Whether to show a map of the venue.': 'Si se muestra un mapa del lugar.',
  'Whether to show a map.': 'Si se muestra un mapa.',
  'Why a parameter of a rest_invalid_param error was refused.':
    'Por qué se rechazó un parámetro de un error rest_invalid_param.',
  'Width in pixels.': 'Ancho en píxeles.',
  'rest_invalid_param: why each refused parameter was refused, by parameter name.':
    'rest_invalid_param: por qué se rechazó cada parámetro rechazado, por nombre de parámetro.',
  'schema.org data (single reads only).': 'Datos de schema.org (solo en lecturas individuales).',
  'true: only events whose venue has coordinates; false: only events whose venue has none.':
    'true: solo los eventos cuyo lugar tiene coordenadas; false: solo aquellos cuyo lugar no las tiene.',
  'true: only featured events; false: only events that are not featured.':
    'true: solo los eventos destacados; false: solo los no destacados.',
  'How many events the feed holds, in start order (at most 500; more is clamped).':
    'Cuántos eventos contiene el feed, por orden de inicio (500 como máximo; más se limita).',
  'The category slug, after the slugs of its parents as in its url.':
    'El slug de la categoría, tras los slugs de sus padres como en su url.',
  'The document, as text of this media type.': 'El documento, como texto de este tipo de medio.',
  'The tag slug.': 'El slug de la etiqueta.',
  'iCalendar feed of one published event, also at {site}/event/{slug}/?ical=1':
    'Feed iCalendar de un evento publicado, también en {site}/event/{slug}/?ical=1',
  'iCalendar feed of the events list, also at {site}/events/?ical=1':
    'Feed iCalendar de la lista de eventos, también en {site}/events/?ical=1',
  'iCalendar feed of the events of a category, also at {site}/events/category/{path}/?ical=1':
    'Feed iCalendar de los eventos de una categoría, también en {site}/events/category/{path}/?ical=1',
  'iCalendar feed of the events of a tag, also at {site}/tag/{slug}/?ical=1':
    'Feed iCalendar de los eventos de una etiqueta, también en {site}/tag/{slug}/?ical=1',
  'An http, https or webcal address to download the calendar from, instead of content.':
    'Una dirección http, https o webcal de la que descargar el calendario, en lugar de content.',
  'Import events from an iCalendar file or address': 'Importar eventos de un archivo o una dirección iCalendar',
  'Report what the import would do without writing anything.':
    'Informar de lo que haría la importación sin escribir nada.',
  'Slug of a category every imported event is put in.':
    'Slug de una categoría en la que se pone cada evento importado.',
  'Status of the events the import creates or updates.': 'Estado de los eventos que la importación crea o actualiza.',
  'The calendar (an iCalendar file) as text; or send it as the body with Content-Type text/calendar.':
    'El calendario (un archivo iCalendar) como texto; o envíelo como cuerpo con Content-Type text/calendar.',
  'What the import did with each VEVENT, and the totals.': 'Lo que la importación hizo con cada VEVENT, y los totales.',
  'Dates without an occurrence (YYYY-MM-DD, or the YYYY-MM-DD HH:MM:SS start).':
    'Fechas sin ocurrencia (YYYY-MM-DD, o el inicio YYYY-MM-DD HH:MM:SS).',
  'Edited alone: series edits leave this occurrence as it is.':
    'Editada sola: las ediciones de la serie no cambian esta ocurrencia.',
  'Extra occurrence dates (YYYY-MM-DD at the series start time, or YYYY-MM-DD HH:MM:SS).':
    'Fechas de ocurrencia adicionales (YYYY-MM-DD a la hora de inicio de la serie, o YYYY-MM-DD HH:MM:SS).',
  'How a series repeats; present on the first event of a recurring series only.':
    'Cómo se repite una serie; solo presente en el primer evento de una serie recurrente.',
  'ID of the series: its first event.': 'ID de la serie: su primer evento.',
  'Makes the event the first of a recurring series: {"rrule": RFC 5545 rule such as FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": extra dates, "exdates": dates left out}; dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event time zone.':
    'Convierte el evento en el primero de una serie recurrente: {"rrule": regla RFC 5545 como FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": fechas adicionales, "exdates": fechas excluidas}; fechas como YYYY-MM-DD o YYYY-MM-DD HH:MM:SS en la zona horaria del evento.',
  'REST URL of the first event of the series.': 'URL REST del primer evento de la serie.',
  'The RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.':
    'La regla de recurrencia RFC 5545, p. ej. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.',
  'The series of an occurrence; present on occurrences of a recurring series only.':
    'La serie de una ocurrencia; solo presente en las ocurrencias de una serie recurrente.',
  'On a recurring series: all (the default on its first event) changes every occurrence not edited alone; following, on an occurrence, splits the series there into a new one. Without it an occurrence is edited alone.':
    'En una serie recurrente: all (por defecto en su primer evento) cambia todas las ocurrencias no editadas por separado; following, en una ocurrencia, divide allí la serie en una nueva. Sin él, una ocurrencia se edita sola.',
  'On a recurring series: all (the default on its first event) trashes the whole series. Without it an occurrence is trashed alone and its date added to the series exdates.':
    'En una serie recurrente: all (por defecto en su primer evento) envía toda la serie a la papelera. Sin él, una ocurrencia va sola a la papelera y su fecha se añade a los exdates de la serie.',
  'Change a subscription’s URL, event types or status.':
    'Cambia la URL, los tipos de evento o el estado de una suscripción.',
  'Changes to events, venues, organizers, categories and tags after a sync token, oldest first.':
    'Cambios de eventos, lugares, organizadores, categorías y etiquetas posteriores a un token de sincronización, del más antiguo al más reciente.',
  'Event types delivered (a list or a comma-separated string): event.created, venue.*, …':
    'Tipos de evento entregados (una lista o una cadena separada por comas): event.created, venue.*, …',
  'How many changes to return per page (at most the max_per_page setting).':
    'Cuántos cambios devolver por página (como máximo el ajuste max_per_page).',
  'How many deliveries to return per page (at most the max_per_page setting).':
    'Cuántas entregas devolver por página (como máximo el ajuste max_per_page).',
  'List webhook subscriptions (administrators).': 'Lista las suscripciones de webhooks (administradores).',
  'More changes follow at once: ask again with next_since.':
    'Siguen más cambios ahora mismo: vuelva a preguntar con next_since.',
  'Only events last changed after this time (UTC).':
    'Solo los eventos modificados por última vez después de este momento (UTC).',
  'Only events last changed before this time (UTC).':
    'Solo los eventos modificados por última vez antes de este momento (UTC).',
  'Only in the answer that created or rotated it.': 'Solo en la respuesta que lo creó o lo renovó.',
  'Only organizers last changed after this time (UTC).':
    'Solo los organizadores modificados por última vez después de este momento (UTC).',
  'Only organizers last changed before this time (UTC).':
    'Solo los organizadores modificados por última vez antes de este momento (UTC).',
  'Only venues last changed after this time (UTC).':
    'Solo los lugares modificados por última vez después de este momento (UTC).',
  'Only venues last changed before this time (UTC).':
    'Solo los lugares modificados por última vez antes de este momento (UTC).',
  'Read a webhook subscription.': 'Lee una suscripción de webhook.',
  'Remove a subscription and its delivery log; the answer is the subscription as it was.':
    'Elimina una suscripción y su registro de entregas; la respuesta es la suscripción tal como era.',
  'Replace the signing secret; the answer shows the new one, once.':
    'Reemplaza el secreto de firma; la respuesta muestra el nuevo, una sola vez.',
  'Send a delivery again now, with another day of retries.':
    'Envía de nuevo una entrega ahora, con otro día de reintentos.',
  'Subscribe a URL to changes; the answer shows the signing secret, once.':
    'Suscribe una URL a los cambios; la respuesta muestra el secreto de firma, una sola vez.',
  'The delivery ID.': 'El ID de la entrega.',
  'The delivery log of a subscription, newest first.':
    'El registro de entregas de una suscripción, de la más reciente a la más antigua.',
  'The next_since of the previous answer; absent, the answer holds the current token only.':
    'El next_since de la respuesta anterior; si falta, la respuesta contiene solo el token actual.',
  'The page of deliveries to return.': 'La página de entregas que se devuelve.',
  'The record’s last change (UTC); for a deletion, its time.':
    'El último cambio del registro (UTC); para una eliminación, su momento.',
  'The token to send as since next time.': 'El token que enviar como since la próxima vez.',
  'The webhook ID.': 'El ID del webhook.',
  'Where deliveries are POSTed: an http or https URL.': 'Adónde se envían las entregas por POST: una URL http o https.',
  '`hidden`: the caller may not read the record as the change left it.':
    '`hidden`: quien llama no puede leer el registro tal como lo dejó el cambio.',
  'enabled (also clears the failures that disabled it) or disabled.':
    'enabled (también borra los fallos que lo desactivaron) o disabled.',
  'modified: newest change first.': 'modified: el cambio más reciente primero.',
};
