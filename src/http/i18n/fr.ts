import type { Catalog } from './index.js';

/** French texts of discovery, `/doc` and the API reference page, keyed by the English source text. */
export const fr: Catalog = {
  'A category or tag as shown inside an event.':
    "Une catégorie ou une étiquette telle qu'elle apparaît dans un événement.",
  'A date split into zero-padded strings.': 'Une date découpée en chaînes complétées par des zéros.',
  'A featured image; keys without a value are left out.': 'Une image mise en avant ; les clés sans valeur sont omises.',
  'A list: comma-separated values or the parameter repeated.':
    'Une liste : valeurs séparées par des virgules ou paramètre répété.',
  'A page of event categories.': "Une page de catégories d'événements.",
  'A page of event tags.': "Une page d'étiquettes d'événements.",
  'A page of events.': "Une page d'événements.",
  'A page of organizers.': "Une page d'organisateurs.",
  'A page of venues.': 'Une page de lieux.',
  'A parameter is missing or invalid, or a linked record does not exist.':
    "Un paramètre est manquant ou invalide, ou un enregistrement lié n'existe pas.",
  'A password that protects the event (write-only); an empty string removes it.':
    "Un mot de passe qui protège l'événement (écriture seule) ; une chaîne vide le supprime.",
  'A route with its methods and endpoint arguments.':
    "Une route avec ses méthodes et les arguments de ses points d'accès.",
  'A venue; empty values are left out.': 'Un lieu ; les valeurs vides sont omises.',
  'Additional fields (always empty).': 'Champs supplémentaires (toujours vide).',
  'Always 0.': 'Toujours 0.',
  'Always empty.': 'Toujours vide.',
  'Always raw.': 'Toujours raw.',
  'An OpenAPI 3.1 document of the interface.': "Un document OpenAPI 3.1 de l'interface.",
  'An alphanumeric identifier for the term unique to its type.':
    'Un identifiant alphanumérique du terme, unique pour son type.',
  'An application password of a user, sent with HTTP Basic authentication. Without credentials the API answers as an anonymous visitor.':
    "Un mot de passe d'application d'un utilisateur, envoyé avec l'authentification HTTP Basic. Sans identifiants, l'API répond comme à un visiteur anonyme.",
  'An error in the WordPress shape.': 'Une erreur au format WordPress.',
  'An event category or tag.': "Une catégorie ou une étiquette d'événements.",
  'An event.': 'Un événement.',
  'An organizer; empty values are left out.': 'Un organisateur ; les valeurs vides sont omises.',
  'Author user ID, as a string.': "ID de l'utilisateur auteur, sous forme de chaîne.",
  'Calendar Server API reference': "Référence de l'API Calendar Server",
  'Calendar Server REST API': 'API REST de Calendar Server',
  'City.': 'Ville.',
  'Country.': 'Pays.',
  'Create a category': 'Créer une catégorie',
  'Create an organizer (or reuse one with the same name).':
    'Créer un organisateur (ou réutiliser celui qui porte le même nom).',
  'Create a tag': 'Créer une étiquette',
  'Create a venue (or reuse one with the same name).': 'Créer un lieu (ou réutiliser celui qui porte le même nom).',
  'Create an event': 'Créer un événement',
  'Created.': 'Créé.',
  'Currency code.': 'Code de la devise.',
  'Currency symbol inferred from the cost.': 'Symbole monétaire déduit du coût.',
  'Delete a category permanently': 'Supprimer définitivement une catégorie',
  'Delete a tag permanently': 'Supprimer définitivement une étiquette',
  'Describe every route of the namespace.': "Décrit toutes les routes de l'espace de noms.",
  'Describe the whole calendar/events/v1 interface as an OpenAPI 3.1 document.':
    "Décrit toute l'interface calendar/events/v1 sous forme de document OpenAPI 3.1.",
  'Description (HTML).': 'Description (HTML).',
  'Display cost.': 'Coût affiché.',
  'E-mail address.': 'Adresse e-mail.',
  'End, UTC.': 'Fin, UTC.',
  'End, in the event time zone.': "Fin, dans le fuseau horaire de l'événement.",
  'Ensure result set excludes specific IDs.': 'Exclure du résultat les ID indiqués.',
  'Equals the term ID.': "Égal à l'ID du terme.",
  'Error data; holds at least the HTTP status.': "Données de l'erreur ; contient au moins le statut HTTP.",
  'Event categories.': "Catégories de l'événement.",
  'Event categories: IDs or names, as a list or a comma-separated string; unknown names create categories.':
    "Catégories de l'événement : ID ou noms, sous forme de liste ou de chaîne séparée par des virgules ; les noms inconnus créent des catégories.",
  'Event tags.': "Étiquettes de l'événement.",
  'Event tags: IDs or names, as a list or a comma-separated string; unknown names create tags.':
    "Étiquettes de l'événement : ID ou noms, sous forme de liste ou de chaîne séparée par des virgules ; les noms inconnus créent des étiquettes.",
  'Event title.': "Titre de l'événement.",
  'Event website.': "Site web de l'événement.",
  'Every route of the namespace with its arguments.': "Toutes les routes de l'espace de noms avec leurs arguments.",
  'Excerpt (HTML).': 'Extrait (HTML).',
  'Featured image, or false.': 'Image mise en avant, ou false.',
  'File extension, e.g. jpg.': 'Extension du fichier, par ex. jpg.',
  'File size in bytes.': 'Taille du fichier en octets.',
  'Filter by tickets; ticketing is not available, so only false is accepted.':
    "Filtrer par billets ; la billetterie n'est pas disponible, seul false est donc accepté.",
  'Four-digit year.': 'Année sur quatre chiffres.',
  'Generated sizes keyed by size name.': 'Tailles générées, indexées par nom de taille.',
  'Global ID: site host and path plus ?id= and the record ID.':
    "ID global : hôte et chemin du site, suivis de ?id= et de l'ID de l'enregistrement.",
  'HTML description of the term.': 'Description HTML du terme.',
  'HTML title for the term.': 'Titre HTML du terme.',
  'HTTP status.': 'Statut HTTP.',
  'Height in pixels.': 'Hauteur en pixels.',
  'How many categories to return per page (at most the max_per_page setting).':
    'Nombre de catégories à renvoyer par page (au plus le réglage max_per_page).',
  'How many events to return per page (at most the max_per_page setting).':
    "Nombre d'événements à renvoyer par page (au plus le réglage max_per_page).",
  'How many organizers to return per page (at most the max_per_page setting).':
    "Nombre d'organisateurs à renvoyer par page (au plus le réglage max_per_page).",
  'How many tags to return per page (at most the max_per_page setting).':
    "Nombre d'étiquettes à renvoyer par page (au plus le réglage max_per_page).",
  'How many venues to return per page (at most the max_per_page setting).':
    'Nombre de lieux à renvoyer par page (au plus le réglage max_per_page).',
  'Human-readable message (English).': 'Message lisible (en anglais).',
  'Hypermedia links (single-term responses only).':
    'Liens hypermédia (uniquement dans les réponses portant sur un seul terme).',
  'ID of the image record.': "ID de l'enregistrement de l'image.",
  'Last change, UTC.': 'Dernière modification, UTC.',
  'Last change, site time zone.': 'Dernière modification, fuseau horaire du site.',
  'Latitude in decimal degrees.': 'Latitude en degrés décimaux.',
  'Latitude of the centre of a venue distance search; needs geoloc_lng.':
    "Latitude du centre d'une recherche par distance du lieu ; nécessite geoloc_lng.",
  'Limit result set to specific IDs.': 'Limiter le résultat aux ID indiqués.',
  'Limit result set to terms assigned to a specific event (alias of post).':
    'Limiter le résultat aux termes attribués à un événement donné (alias de post).',
  'Limit result set to terms assigned to a specific event.':
    'Limiter le résultat aux termes attribués à un événement donné.',
  'Limit result set to terms assigned to a specific parent.': 'Limiter le résultat aux termes ayant un parent donné.',
  'Limit result set to terms with a specific slug.': 'Limiter le résultat aux termes ayant un slug donné.',
  'Limit results to those matching a string.': 'Limiter le résultat à ceux qui correspondent à une chaîne.',
  'Links to the next and previous pages (RFC 8288).': 'Liens vers les pages suivante et précédente (RFC 8288).',
  'List categories': 'Lister les catégories',
  'List events': 'Lister les événements',
  'List organizers.': 'Lister les organisateurs.',
  'List tags': 'Lister les étiquettes',
  'List venues.': 'Lister les lieux.',
  'Longitude in decimal degrees.': 'Longitude en degrés décimaux.',
  'Longitude of the centre of a venue distance search; needs geoloc_lat.':
    "Longitude du centre d'une recherche par distance du lieu ; nécessite geoloc_lat.",
  'MIME type of the file.': 'Type MIME du fichier.',
  'Machine-readable error code.': "Code d'erreur lisible par une machine.",
  'Manage calendar events and their venues, organizers, categories and tags. Compatible with the REST API of The Events Calendar (tribe/events/v1).':
    "Gère des événements de calendrier et leurs lieux, organisateurs, catégories et étiquettes. Compatible avec l'API REST de The Events Calendar (tribe/events/v1).",
  'Move an organizer to the trash.': 'Mettre un organisateur à la corbeille.',
  'Move a venue to the trash.': 'Mettre un lieu à la corbeille.',
  'Move an event to the trash': 'Mettre un événement à la corbeille',
  'Move an event to the trash by slug': 'Mettre un événement à la corbeille par slug',
  'No such route or record, or a page past the end.':
    "La route ou l'enregistrement n'existe pas, ou la page est au-delà de la fin.",
  'Number of matching records over all pages.': "Nombre d'enregistrements correspondants sur toutes les pages.",
  'Number of pages.': 'Nombre de pages.',
  'Number of published events carrying the term.': "Nombre d'événements publiés portant le terme.",
  'One generated size of an image.': "Une taille générée d'une image.",
  'Only events at one of these venues (IDs).': "Uniquement les événements dans l'un de ces lieux (ID).",
  'Only events by one of these organizers (IDs).': "Uniquement les événements de l'un de ces organisateurs (ID).",
  'Only events ending after this date.': 'Uniquement les événements qui se terminent après cette date.',
  'Only events ending before this date.': 'Uniquement les événements qui se terminent avant cette date.',
  'Only events ending on or before this date (whole days unless strict_dates).':
    'Uniquement les événements qui se terminent à cette date ou avant (jours entiers sauf avec strict_dates).',
  'Only events in one of these categories (IDs or slugs; sub-categories included), as a list or a comma-separated string.':
    "Uniquement les événements de l'une de ces catégories (ID ou slugs ; sous-catégories comprises), sous forme de liste ou de chaîne séparée par des virgules.",
  'Only events starting after this date.': 'Uniquement les événements qui commencent après cette date.',
  'Only events starting before this date.': 'Uniquement les événements qui commencent avant cette date.',
  'Only events starting on or after this date (whole days unless strict_dates).':
    'Uniquement les événements qui commencent à cette date ou après (jours entiers sauf avec strict_dates).',
  'Only events whose parent is this event.': 'Uniquement les événements dont le parent est cet événement.',
  'Only events whose title, excerpt or description contain these words ("quoted phrases" kept together, -word excluded).':
    'Uniquement les événements dont le titre, l\'extrait ou la description contiennent ces mots (les "phrases entre guillemets" restent groupées, -mot exclut).',
  'Only events with one of these tags (IDs or slugs), as a list or a comma-separated string.':
    "Uniquement les événements portant l'une de ces étiquettes (ID ou slugs), sous forme de liste ou de chaîne séparée par des virgules.",
  'Only events with these IDs (date filters then apply only through starts_*/ends_*).':
    "Uniquement les événements ayant ces ID (les filtres de date ne s'appliquent alors que via starts_*/ends_*).",
  'Only events with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit events.':
    'Uniquement les événements ayant ces statuts (liste séparée par des virgules) ; `any` pour tous les statuts sauf la corbeille. Les statuts non publics nécessitent le droit de modifier les événements.',
  'Only organizers linked to this event.': 'Uniquement les organisateurs liés à cet événement.',
  'Only organizers whose name, description or details contain these words.':
    'Uniquement les organisateurs dont le nom, la description ou les coordonnées contiennent ces mots.',
  'Only organizers with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit organizers.':
    'Uniquement les organisateurs ayant ces statuts (liste séparée par des virgules) ; `any` pour tous les statuts sauf la corbeille. Les statuts non publics nécessitent le droit de modifier les organisateurs.',
  'Only venues linked to this event.': 'Uniquement les lieux liés à cet événement.',
  'Only venues whose name, description or details contain these words.':
    'Uniquement les lieux dont le nom, la description ou les coordonnées contiennent ces mots.',
  'Only venues with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit venues.':
    'Uniquement les lieux ayant ces statuts (liste séparée par des virgules) ; `any` pour tous les statuts sauf la corbeille. Les statuts non publics nécessitent le droit de modifier les lieux.',
  'Order sort attribute ascending or descending.': 'Ordre de tri croissant ou décroissant.',
  'Organizer name.': "Nom de l'organisateur.",
  'Organizers, in link order.': "Organisateurs, dans l'ordre des liens.",
  'Organizers: IDs, or organizer data objects to create organizers from, as a list or a comma-separated string.':
    'Organisateurs : ID, ou objets de données à partir desquels créer des organisateurs, sous forme de liste ou de chaîne séparée par des virgules.',
  'Parent category ID, 0 at the top level (categories only).':
    'ID de la catégorie parente, 0 au premier niveau (catégories uniquement).',
  'Parent category ID, 0 at the top level.': 'ID de la catégorie parente, 0 au premier niveau.',
  'Phone number.': 'Numéro de téléphone.',
  'Postal code.': 'Code postal.',
  'Province.': 'Province.',
  'Public archive URL of the term.': "URL publique de l'archive du terme.",
  'Public page URL.': 'URL de la page publique.',
  'Publication date, UTC.': 'Date de publication, UTC.',
  'Publication date, site time zone.': 'Date de publication, fuseau horaire du site.',
  'Publication status of the record.': "Statut de publication de l'enregistrement.",
  'REST URL of the event.': "URL REST de l'événement.",
  'REST URL of the next page.': 'URL REST de la page suivante.',
  'REST URL of the parent category.': 'URL REST de la catégorie parente.',
  'REST URL of the previous page.': 'URL REST de la page précédente.',
  'REST URL of the term collection.': 'URL REST de la collection de termes.',
  'REST URL of the term.': 'URL REST du terme.',
  'REST URL of this page.': 'URL REST de cette page.',
  'REST URLs of the term.': 'URL REST du terme.',
  'Radius of the venue distance search, in the unit of the geoloc_unit setting (default: the geoloc_radius setting).':
    "Rayon de la recherche par distance du lieu, dans l'unité du réglage geoloc_unit (par défaut : le réglage geoloc_radius).",
  'Read a category': 'Lire une catégorie',
  'Read an organizer.': 'Lire un organisateur.',
  'Read a tag': 'Lire une étiquette',
  'Read a venue.': 'Lire un lieu.',
  'Read an event': 'Lire un événement',
  'Read an event by slug': 'Lire un événement par slug',
  'Record ID.': "ID de l'enregistrement.",
  'Scope of the description; every value gives the same document.':
    'Portée de la description ; toute valeur donne le même document.',
  'Sort collection by term attribute.': 'Trier la collection selon un attribut du terme.',
  'Stable code of the reason: invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type; or the code of an error such as event-tickets-not-active.':
    "Code stable du motif : invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type ; ou le code d'une erreur telle que event-tickets-not-active.",
  'Start, UTC.': 'Début, UTC.',
  'Start, in the event time zone.': "Début, dans le fuseau horaire de l'événement.",
  'State or province.': 'État ou province.',
  'State.': 'État.',
  'Street address.': 'Adresse postale.',
  'Success.': 'Succès.',
  'Taxonomy: tribe_events_cat for categories, post_tag for tags.':
    'Taxonomie : tribe_events_cat pour les catégories, post_tag pour les étiquettes.',
  'Term ID.': 'ID du terme.',
  'Term description (HTML).': 'Description du terme (HTML).',
  'Term name.': 'Nom du terme.',
  'Term slug.': 'Slug du terme.',
  "The ID of the event's author.": "L'ID de l'auteur de l'événement.",
  "The ID of the organizer's author.": "L'ID de l'auteur de l'organisateur.",
  "The ID of the venue's author.": "L'ID de l'auteur du lieu.",
  'The cost values found, as strings, lowest first.':
    'Les valeurs de coût trouvées, sous forme de chaînes, de la plus basse à la plus haute.',
  'The credentials are wrong, or the operation needs an authenticated user.':
    "Les identifiants sont incorrects, ou l'opération nécessite un utilisateur authentifié.",
  'The event cost: a text such as "10", "10-20", "Free" or "$5.50", a number, or a list of them.':
    'Le coût de l\'événement : un texte tel que "10", "10-20", "Free" ou "$5.50", un nombre, ou une liste de ceux-ci.',
  'The event description (HTML); an empty string clears it.':
    "La description de l'événement (HTML) ; une chaîne vide l'efface.",
  'The event end date and time, in the event time zone.':
    "La date et l'heure de fin de l'événement, dans le fuseau horaire de l'événement.",
  'The event excerpt (HTML); an empty string clears it.': "L'extrait de l'événement (HTML) ; une chaîne vide l'efface.",
  'The event publication date in UTC.': "La date de publication de l'événement en UTC.",
  'The event publication date, in the site time zone.':
    "La date de publication de l'événement, dans le fuseau horaire du site.",
  'The event slug.': "Le slug de l'événement.",
  'The event start date and time, in the event time zone.':
    "La date et l'heure de début de l'événement, dans le fuseau horaire de l'événement.",
  'The event status: publish, future, draft, pending or private.':
    "Le statut de l'événement : publish, future, draft, pending ou private.",
  'The event time zone: an IANA name (America/New_York), UTC, or an offset such as UTC+5 or UTC-3.5; empty for the site time zone.':
    "Le fuseau horaire de l'événement : un nom IANA (America/New_York), UTC, ou un décalage tel que UTC+5 ou UTC-3.5 ; vide pour le fuseau horaire du site.",
  'The event title.': "Le titre de l'événement.",
  'The event website: an http or https URL, or empty.': "Le site web de l'événement : une URL http ou https, ou vide.",
  "The event's featured image: an image ID or an image URL.":
    "L'image mise en avant de l'événement : un ID d'image ou une URL d'image.",
  'The global ID followed by any imported lineage IDs.': "L'ID global suivi des éventuels ID de lignée importés.",
  'The namespace to describe.': "L'espace de noms à décrire.",
  'The organizer description (HTML).': "La description de l'organisateur (HTML).",
  'The organizer e-mail address.': "L'adresse e-mail de l'organisateur.",
  'The organizer name.': "Le nom de l'organisateur.",
  'The organizer phone number.': "Le numéro de téléphone de l'organisateur.",
  'The organizer publication date in UTC.': "La date de publication de l'organisateur en UTC.",
  'The organizer publication date, in the site time zone.':
    "La date de publication de l'organisateur, dans le fuseau horaire du site.",
  'The organizer slug.': "Le slug de l'organisateur.",
  'The organizer status: publish, future, draft, pending or private.':
    "Le statut de l'organisateur : publish, future, draft, pending ou private.",
  'The organizer website (an http or https URL).': "Le site web de l'organisateur (une URL http ou https).",
  "The organizer's featured image: an image ID or an image URL.":
    "L'image mise en avant de l'organisateur : un ID d'image ou une URL d'image.",
  'The page of categories to return.': 'La page de catégories à renvoyer.',
  'The page of events to return.': "La page d'événements à renvoyer.",
  'The page of organizers to return.': "La page d'organisateurs à renvoyer.",
  'The page of tags to return.': "La page d'étiquettes à renvoyer.",
  'The page of venues to return.': 'La page de lieux à renvoyer.',
  'The parameter, its value and what would be accepted (English).':
    'Le paramètre, sa valeur et ce qui serait accepté (en anglais).',
  'The parent term ID.': "L'ID du terme parent.",
  'The parent term ID; 0 moves the category to the top level.':
    "L'ID du terme parent ; 0 place la catégorie au premier niveau.",
  'The parts of an event cost.': "Les éléments du coût d'un événement.",
  'The password of a password-protected event.': "Le mot de passe d'un événement protégé par mot de passe.",
  'The record ID.': "L'ID de l'enregistrement.",
  'The record could not be changed or deleted.': "L'enregistrement n'a pas pu être modifié ou supprimé.",
  'The record is already in the trash.': "L'enregistrement est déjà dans la corbeille.",
  'The record slug.': "Le slug de l'enregistrement.",
  'The user may not perform this operation on this record.':
    "L'utilisateur n'a pas le droit d'effectuer cette opération sur cet enregistrement.",
  'The venue ZIP or postal code.': 'Le code postal du lieu.',
  'The venue city.': 'La ville du lieu.',
  'The venue country (free text).': 'Le pays du lieu (texte libre).',
  'The venue description (HTML).': 'La description du lieu (HTML).',
  'The venue latitude in decimal degrees (-90 to 90).': 'La latitude du lieu en degrés décimaux (de -90 à 90).',
  'The venue longitude in decimal degrees (-180 to 180).': 'La longitude du lieu en degrés décimaux (de -180 à 180).',
  'The venue name.': 'Le nom du lieu.',
  'The venue phone number.': 'Le numéro de téléphone du lieu.',
  'The venue province.': 'La province du lieu.',
  'The venue publication date in UTC.': 'La date de publication du lieu en UTC.',
  'The venue publication date, in the site time zone.':
    'La date de publication du lieu, dans le fuseau horaire du site.',
  'The venue slug.': 'Le slug du lieu.',
  'The venue state or province; derived from state/province when not given.':
    "L'État ou la province du lieu ; déduit de state/province s'il n'est pas fourni.",
  'The venue state.': "L'État du lieu.",
  'The venue status: publish, future, draft, pending or private.':
    'Le statut du lieu : publish, future, draft, pending ou private.',
  'The venue street address.': "L'adresse postale du lieu.",
  'The venue website (an http or https URL).': 'Le site web du lieu (une URL http ou https).',
  "The venue's featured image: an image ID or an image URL.":
    "L'image mise en avant du lieu : un ID d'image ou une URL d'image.",
  'The venue; a list when there are several, an empty list when none.':
    "Le lieu ; une liste lorsqu'il y en a plusieurs, une liste vide lorsqu'il n'y en a aucun.",
  'Time zone abbreviation at the start.': 'Abréviation du fuseau horaire au début.',
  'Time zone of the event.': "Fuseau horaire de l'événement.",
  'Too many failed logins or requests; retry after the seconds given in the Retry-After header.':
    "Trop de connexions échouées ou de requêtes ; réessayer après le nombre de secondes indiqué dans l'en-tête Retry-After.",
  'Truthy: only organizers linked to events; otherwise only organizers linked to none.':
    'Vrai : uniquement les organisateurs liés à des événements ; sinon uniquement ceux qui ne sont liés à aucun.',
  'Truthy: only organizers linked to upcoming events.':
    'Vrai : uniquement les organisateurs liés à des événements à venir.',
  'Truthy: only venues linked to events; otherwise only venues linked to none.':
    'Vrai : uniquement les lieux liés à des événements ; sinon uniquement ceux qui ne sont liés à aucun.',
  'Truthy: only venues linked to upcoming events.': 'Vrai : uniquement les lieux liés à des événements à venir.',
  'Two-digit day of the month.': 'Jour du mois sur deux chiffres.',
  'Two-digit hour (24-hour clock).': 'Heure sur deux chiffres (format 24 heures).',
  'Two-digit minutes.': 'Minutes sur deux chiffres.',
  'Two-digit month.': 'Mois sur deux chiffres.',
  'Two-digit seconds.': 'Secondes sur deux chiffres.',
  'URL of the file.': 'URL du fichier.',
  'URL of the full-size image.': "URL de l'image en taille réelle.",
  'URL slug.': "Slug de l'URL.",
  'Unique identifier for the category.': 'Identifiant unique de la catégorie.',
  'Unique identifier for the tag.': "Identifiant unique de l'étiquette.",
  'Unique identifier of the event.': "Identifiant unique de l'événement.",
  'Unique identifier of the organizer.': "Identifiant unique de l'organisateur.",
  'Unique identifier of the venue.': 'Identifiant unique du lieu.',
  'Update a category': 'Mettre à jour une catégorie',
  'Update an organizer by ID; only the fields sent change.':
    'Mettre à jour un organisateur par ID ; seuls les champs envoyés changent.',
  'Update an organizer by slug; only the fields sent change.':
    'Mettre à jour un organisateur par slug ; seuls les champs envoyés changent.',
  'Update a tag': 'Mettre à jour une étiquette',
  'Update a venue by ID; only the fields sent change.':
    'Mettre à jour un lieu par ID ; seuls les champs envoyés changent.',
  'Update a venue by slug; only the fields sent change.':
    'Mettre à jour un lieu par slug ; seuls les champs envoyés changent.',
  'Update an event': 'Mettre à jour un événement',
  'Update an event by slug': 'Mettre à jour un événement par slug',
  'Venue name.': 'Nom du lieu.',
  'Venues: IDs, or venue data objects to create venues from, as one value, a list or a comma-separated string.':
    "Lieux : ID, ou objets de données à partir desquels créer des lieux, sous forme d'une valeur, d'une liste ou d'une chaîne séparée par des virgules.",
  'Website URL.': 'URL du site web.',
  'When true (1, true, on, yes), the dates are used with their times; otherwise whole days are included.':
    'Si vrai (1, true, on, yes), les dates sont utilisées avec leurs heures ; sinon des jours entiers sont inclus.',
  'Where the currency symbol goes.': 'Position du symbole monétaire.',
  'Whether the event is featured.': "Si l'événement est mis en avant.",
  'Whether the event is hidden from listings.': "Si l'événement est masqué dans les listes.",
  'Whether the event is sticky in month view.': "Si l'événement est épinglé dans la vue mensuelle.",
  'Whether the event lasts the whole day.': "Si l'événement dure toute la journée.",
  'Whether the event sticks in calendar views.': "Si l'événement est épinglé dans les vues du calendrier.",
  'Whether to hide terms not assigned to any published event.':
    'Si les termes attribués à aucun événement publié sont masqués.',
  'Whether to hide the event from event listings.': "Si l'événement est masqué dans les listes d'événements.",
  'Whether to show a link to a map of the venue (a truthy string or a boolean; default true).':
    'Si un lien vers une carte du lieu est affiché (une chaîne vraie ou un booléen ; true par défaut).',
  'Whether to show a link to a map of the venue.': 'Si un lien vers une carte du lieu est affiché.',
  'Whether to show a map link.': 'Si un lien vers la carte est affiché.',
  'Whether to show a map of the venue (a truthy string or a boolean; default true).':
    'Si une carte du lieu est affichée (une chaîne vraie ou un booléen ; true par défaut).',
  'Whether to show a map of the venue.': 'Si une carte du lieu est affichée.',
  'Whether to show a map.': 'Si une carte est affichée.',
  'Why a parameter of a rest_invalid_param error was refused.':
    "Pourquoi un paramètre d'une erreur rest_invalid_param a été refusé.",
  'Width in pixels.': 'Largeur en pixels.',
  'rest_invalid_param: why each refused parameter was refused, by parameter name.':
    "rest_invalid_param : pourquoi chaque paramètre refusé l'a été, par nom de paramètre.",
  'schema.org data (single reads only).': 'Données schema.org (lectures individuelles uniquement).',
  'true: only events whose venue has coordinates; false: only events whose venue has none.':
    "true : uniquement les événements dont le lieu a des coordonnées ; false : uniquement ceux dont le lieu n'en a pas.",
  'true: only featured events; false: only events that are not featured.':
    'true : uniquement les événements mis en avant ; false : uniquement ceux qui ne le sont pas.',
  'How many events the feed holds, in start order (at most 500; more is clamped).':
    "Nombre d'évènements du flux, par ordre de début (500 au plus ; au-delà, la valeur est plafonnée).",
  'The category slug, after the slugs of its parents as in its url.':
    'Le slug de la catégorie, après les slugs de ses parents comme dans son url.',
  'The document, as text of this media type.': 'Le document, en texte de ce type de média.',
  'The tag slug.': "Le slug de l'étiquette.",
  'iCalendar feed of one published event, also at {site}/event/{slug}/?ical=1':
    "Flux iCalendar d'un évènement publié, aussi à {site}/event/{slug}/?ical=1",
  'iCalendar feed of the events list, also at {site}/events/?ical=1':
    'Flux iCalendar de la liste des évènements, aussi à {site}/events/?ical=1',
  'iCalendar feed of the events of a category, also at {site}/events/category/{path}/?ical=1':
    "Flux iCalendar des évènements d'une catégorie, aussi à {site}/events/category/{path}/?ical=1",
  'iCalendar feed of the events of a tag, also at {site}/tag/{slug}/?ical=1':
    "Flux iCalendar des évènements d'une étiquette, aussi à {site}/tag/{slug}/?ical=1",
  'An http, https or webcal address to download the calendar from, instead of content.':
    "Une adresse http, https ou webcal d'où télécharger le calendrier, au lieu de content.",
  'Import events from an iCalendar file or address': "Importer des événements d'un fichier ou d'une adresse iCalendar",
  'Report what the import would do without writing anything.': "Indiquer ce que ferait l'importation sans rien écrire.",
  'Slug of a category every imported event is put in.': 'Slug d’une catégorie où placer chaque événement importé.',
  'Status of the events the import creates or updates.': "Statut des événements que l'importation crée ou met à jour.",
  'The calendar (an iCalendar file) as text; or send it as the body with Content-Type text/calendar.':
    'Le calendrier (un fichier iCalendar) en texte ; ou envoyez-le comme corps avec Content-Type text/calendar.',
  'What the import did with each VEVENT, and the totals.':
    "Ce que l'importation a fait de chaque VEVENT, et les totaux.",
  'Dates without an occurrence (YYYY-MM-DD, or the YYYY-MM-DD HH:MM:SS start).':
    'Dates sans occurrence (YYYY-MM-DD, ou le début YYYY-MM-DD HH:MM:SS).',
  'Edited alone: series edits leave this occurrence as it is.':
    'Modifiée seule : les modifications de la série laissent cette occurrence telle quelle.',
  'Extra occurrence dates (YYYY-MM-DD at the series start time, or YYYY-MM-DD HH:MM:SS).':
    "Dates d'occurrence supplémentaires (YYYY-MM-DD à l'heure de début de la série, ou YYYY-MM-DD HH:MM:SS).",
  'How a series repeats; present on the first event of a recurring series only.':
    "Comment une série se répète ; présent uniquement sur le premier événement d'une série récurrente.",
  'ID of the series: its first event.': 'ID de la série : son premier événement.',
  'Makes the event the first of a recurring series: {"rrule": RFC 5545 rule such as FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": extra dates, "exdates": dates left out}; dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event time zone.':
    'Fait de l\'événement le premier d\'une série récurrente : {"rrule": règle RFC 5545 telle que FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": dates ajoutées, "exdates": dates exclues} ; dates au format YYYY-MM-DD ou YYYY-MM-DD HH:MM:SS dans le fuseau horaire de l\'événement.',
  'REST URL of the first event of the series.': 'URL REST du premier événement de la série.',
  'The RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.':
    'La règle de récurrence RFC 5545, par ex. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.',
  'The series of an occurrence; present on occurrences of a recurring series only.':
    "La série d'une occurrence ; présent uniquement sur les occurrences d'une série récurrente.",
  'On a recurring series: all (the default on its first event) changes every occurrence not edited alone; following, on an occurrence, splits the series there into a new one. Without it an occurrence is edited alone.':
    'Sur une série récurrente : all (par défaut sur son premier événement) modifie toutes les occurrences non modifiées seules ; following, sur une occurrence, scinde la série à cet endroit en une nouvelle. Sans lui, une occurrence est modifiée seule.',
  'On a recurring series: all (the default on its first event) trashes the whole series. Without it an occurrence is trashed alone and its date added to the series exdates.':
    'Sur une série récurrente : all (par défaut sur son premier événement) met toute la série à la corbeille. Sans lui, une occurrence va seule à la corbeille et sa date est ajoutée aux exdates de la série.',
  'Change a subscription’s URL, event types or status.':
    'Modifie l’URL, les types d’événements ou l’état d’un abonnement.',
  'Changes to events, venues, organizers, categories and tags after a sync token, oldest first.':
    'Les modifications des événements, lieux, organisateurs, catégories et étiquettes après un jeton de synchronisation, de la plus ancienne à la plus récente.',
  'Event types delivered (a list or a comma-separated string): event.created, venue.*, …':
    'Types d’événements livrés (une liste ou une chaîne séparée par des virgules) : event.created, venue.*, …',
  'How many changes to return per page (at most the max_per_page setting).':
    'Nombre de modifications à renvoyer par page (au plus le réglage max_per_page).',
  'How many deliveries to return per page (at most the max_per_page setting).':
    'Nombre de livraisons à renvoyer par page (au plus le réglage max_per_page).',
  'List webhook subscriptions (administrators).': 'Liste les abonnements webhook (administrateurs).',
  'More changes follow at once: ask again with next_since.':
    'D’autres modifications suivent dès maintenant : redemandez avec next_since.',
  'Only events last changed after this time (UTC).':
    'Seulement les événements modifiés pour la dernière fois après ce moment (UTC).',
  'Only events last changed before this time (UTC).':
    'Seulement les événements modifiés pour la dernière fois avant ce moment (UTC).',
  'Only in the answer that created or rotated it.': 'Seulement dans la réponse qui l’a créé ou renouvelé.',
  'Only organizers last changed after this time (UTC).':
    'Seulement les organisateurs modifiés pour la dernière fois après ce moment (UTC).',
  'Only organizers last changed before this time (UTC).':
    'Seulement les organisateurs modifiés pour la dernière fois avant ce moment (UTC).',
  'Only venues last changed after this time (UTC).':
    'Seulement les lieux modifiés pour la dernière fois après ce moment (UTC).',
  'Only venues last changed before this time (UTC).':
    'Seulement les lieux modifiés pour la dernière fois avant ce moment (UTC).',
  'Read a webhook subscription.': 'Lit un abonnement webhook.',
  'Remove a subscription and its delivery log; the answer is the subscription as it was.':
    'Supprime un abonnement et son journal de livraisons ; la réponse est l’abonnement tel qu’il était.',
  'Replace the signing secret; the answer shows the new one, once.':
    'Remplace le secret de signature ; la réponse montre le nouveau, une seule fois.',
  'Send a delivery again now, with another day of retries.':
    'Renvoie une livraison maintenant, avec une nouvelle journée de tentatives.',
  'Subscribe a URL to changes; the answer shows the signing secret, once.':
    'Abonne une URL aux modifications ; la réponse montre le secret de signature, une seule fois.',
  'The delivery ID.': 'L’ID de la livraison.',
  'The delivery log of a subscription, newest first.':
    'Le journal des livraisons d’un abonnement, de la plus récente à la plus ancienne.',
  'The next_since of the previous answer; absent, the answer holds the current token only.':
    'Le next_since de la réponse précédente ; en son absence, la réponse ne contient que le jeton actuel.',
  'The page of deliveries to return.': 'La page de livraisons à renvoyer.',
  'The record’s last change (UTC); for a deletion, its time.':
    'La dernière modification de l’enregistrement (UTC) ; pour une suppression, son moment.',
  'The token to send as since next time.': 'Le jeton à envoyer comme since la prochaine fois.',
  'The webhook ID.': 'L’ID du webhook.',
  'Where deliveries are POSTed: an http or https URL.':
    'Où les livraisons sont envoyées par POST : une URL http ou https.',
  '`hidden`: the caller may not read the record as the change left it.':
    '`hidden` : l’appelant ne peut pas lire l’enregistrement tel que la modification l’a laissé.',
  'enabled (also clears the failures that disabled it) or disabled.':
    'enabled (efface aussi les échecs qui l’ont désactivé) ou disabled.',
  'modified: newest change first.': 'modified : la modification la plus récente d’abord.',
};
