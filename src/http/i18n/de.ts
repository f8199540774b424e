import type { Catalog } from './index.js';

/** German texts of discovery, `/doc` and the API reference page, keyed by the English source text. */
export const de: Catalog = {
  'A category or tag as shown inside an event.':
    'Eine Kategorie oder ein Schlagwort, wie es innerhalb einer Veranstaltung erscheint.',
  'A date split into zero-padded strings.': 'Ein Datum, zerlegt in mit Nullen aufgefüllte Zeichenketten.',
  'A featured image; keys without a value are left out.': 'Ein Beitragsbild; Schlüssel ohne Wert werden weggelassen.',
  'A list: comma-separated values or the parameter repeated.':
    'Eine Liste: durch Kommas getrennte Werte oder der wiederholte Parameter.',
  'A page of event categories.': 'Eine Seite mit Veranstaltungskategorien.',
  'A page of event tags.': 'Eine Seite mit Veranstaltungsschlagwörtern.',
  'A page of events.': 'Eine Seite mit Veranstaltungen.',
  'A page of organizers.': 'Eine Seite mit Veranstaltern.',
  'A page of venues.': 'Eine Seite mit Veranstaltungsorten.',
  'A parameter is missing or invalid, or a linked record does not exist.':
    'Ein Parameter fehlt oder ist ungültig, oder ein verknüpfter Datensatz existiert nicht.',
  'A password that protects the event (write-only); an empty string removes it.':
    'Ein Passwort, das die Veranstaltung schützt (nur schreibbar); eine leere Zeichenkette entfernt es.',
  'A route with its methods and endpoint arguments.':
    'Eine Route mit ihren Methoden und den Argumenten ihrer Endpunkte.',
  'A venue; empty values are left out.': 'Ein Veranstaltungsort; leere Werte werden weggelassen.',
  'Additional fields (always empty).': 'Zusätzliche Felder (immer leer).',
  'Always 0.': 'Immer 0.',
  'Always empty.': 'Immer leer.',
  'Always raw.': 'Immer raw.',
  'An OpenAPI 3.1 document of the interface.': 'Ein OpenAPI-3.1-Dokument der Schnittstelle.',
  'An alphanumeric identifier for the term unique to its type.':
    'Eine alphanumerische Kennung des Begriffs, eindeutig innerhalb seines Typs.',
  'An application password of a user, sent with HTTP Basic authentication. Without credentials the API answers as an anonymous visitor.':
    'Ein Anwendungspasswort eines Benutzers, gesendet mit HTTP-Basic-Authentifizierung. Ohne Zugangsdaten antwortet die API wie einem anonymen Besucher.',
  'An error in the WordPress shape.': 'Ein Fehler im WordPress-Format.',
  'An event category or tag.': 'Eine Veranstaltungskategorie oder ein Schlagwort.',
  'An event.': 'Eine Veranstaltung.',
  'An organizer; empty values are left out.': 'Ein Veranstalter; leere Werte werden weggelassen.',
  'Author user ID, as a string.': 'Benutzer-ID des Autors, als Zeichenkette.',
  'Calendar Server API reference': 'API-Referenz von Calendar Server',
  'Calendar Server REST API': 'REST-API von Calendar Server',
  'City.': 'Stadt.',
  'Country.': 'Land.',
  'Create a category': 'Eine Kategorie anlegen',
  'Create an organizer (or reuse one with the same name).':
    'Einen Veranstalter anlegen (oder einen mit demselben Namen wiederverwenden).',
  'Create a tag': 'Ein Schlagwort anlegen',
  'Create a venue (or reuse one with the same name).':
    'Einen Veranstaltungsort anlegen (oder einen mit demselben Namen wiederverwenden).',
  'Create an event': 'Eine Veranstaltung anlegen',
  'Created.': 'Erstellt.',
  'Currency code.': 'Währungscode.',
  'Currency symbol inferred from the cost.': 'Aus dem Preis abgeleitetes Währungssymbol.',
  'Delete a category permanently': 'Eine Kategorie endgültig löschen',
  'Delete a tag permanently': 'Ein Schlagwort endgültig löschen',
  'Describe every route of the namespace.': 'Beschreibt alle Routen des Namensraums.',
  'Describe the whole calendar/events/v1 interface as an OpenAPI 3.1 document.':
    'Beschreibt die gesamte Schnittstelle calendar/events/v1 als OpenAPI-3.1-Dokument.',
  'Description (HTML).': 'Beschreibung (HTML).',
  'Display cost.': 'Angezeigter Preis.',
  'E-mail address.': 'E-Mail-Adresse.',
  'End, UTC.': 'Ende, UTC.',
  'End, in the event time zone.': 'Ende, in der Zeitzone der Veranstaltung.',
  'Ensure result set excludes specific IDs.': 'Die angegebenen IDs aus dem Ergebnis ausschließen.',
  'Equals the term ID.': 'Gleich der ID des Begriffs.',
  'Error data; holds at least the HTTP status.': 'Fehlerdaten; enthalten mindestens den HTTP-Status.',
  'Event categories.': 'Kategorien der Veranstaltung.',
  'Event categories: IDs or names, as a list or a comma-separated string; unknown names create categories.':
    'Kategorien der Veranstaltung: IDs oder Namen, als Liste oder durch Kommas getrennte Zeichenkette; unbekannte Namen legen Kategorien an.',
  'Event tags.': 'Schlagwörter der Veranstaltung.',
  'Event tags: IDs or names, as a list or a comma-separated string; unknown names create tags.':
    'Schlagwörter der Veranstaltung: IDs oder Namen, als Liste oder durch Kommas getrennte Zeichenkette; unbekannte Namen legen Schlagwörter an.',
  'Event title.': 'Titel der Veranstaltung.',
  'Event website.': 'Website der Veranstaltung.',
  'Every route of the namespace with its arguments.': 'Alle Routen des Namensraums mit ihren Argumenten.',
  'Excerpt (HTML).': 'Auszug (HTML).',
  'Featured image, or false.': 'Beitragsbild oder false.',
  'File extension, e.g. jpg.': 'Dateierweiterung, z. B. jpg.',
  'File size in bytes.': 'Dateigröße in Bytes.',
  'Filter by tickets; ticketing is not available, so only false is accepted.':
    'Nach Tickets filtern; Ticketverkauf ist nicht verfügbar, daher wird nur false akzeptiert.',
  'Four-digit year.': 'Vierstelliges Jahr.',
  'Generated sizes keyed by size name.': 'Erzeugte Größen, nach Größenname geordnet.',
  'Global ID: site host and path plus ?id= and the record ID.':
    'Globale ID: Host und Pfad der Website, gefolgt von ?id= und der ID des Datensatzes.',
  'HTML description of the term.': 'HTML-Beschreibung des Begriffs.',
  'HTML title for the term.': 'HTML-Titel des Begriffs.',
  'HTTP status.': 'HTTP-Status.',
  'Height in pixels.': 'Höhe in Pixeln.',
  'How many categories to return per page (at most the max_per_page setting).':
    'Wie viele Kategorien pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'How many events to return per page (at most the max_per_page setting).':
    'Wie viele Veranstaltungen pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'How many organizers to return per page (at most the max_per_page setting).':
    'Wie viele Veranstalter pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'How many tags to return per page (at most the max_per_page setting).':
    'Wie viele Schlagwörter pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'How many venues to return per page (at most the max_per_page setting).':
    'Wie viele Veranstaltungsorte pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'Human-readable message (English).': 'Lesbare Meldung (auf Englisch).',
  'Hypermedia links (single-term responses only).': 'Hypermedia-Links (nur in Antworten mit einem einzelnen Begriff).',
  'ID of the image record.': 'ID des Bilddatensatzes.',
  'Last change, UTC.': 'Letzte Änderung, UTC.',
  'Last change, site time zone.': 'Letzte Änderung, Zeitzone der Website.',
  'Latitude in decimal degrees.': 'Breitengrad in Dezimalgrad.',
  'Latitude of the centre of a venue distance search; needs geoloc_lng.':
    'Breitengrad des Mittelpunkts einer Umkreissuche nach Veranstaltungsorten; erfordert geoloc_lng.',
  'Limit result set to specific IDs.': 'Das Ergebnis auf die angegebenen IDs beschränken.',
  'Limit result set to terms assigned to a specific event (alias of post).':
    'Das Ergebnis auf Begriffe einer bestimmten Veranstaltung beschränken (Alias von post).',
  'Limit result set to terms assigned to a specific event.':
    'Das Ergebnis auf Begriffe einer bestimmten Veranstaltung beschränken.',
  'Limit result set to terms assigned to a specific parent.':
    'Das Ergebnis auf Begriffe mit einem bestimmten übergeordneten Begriff beschränken.',
  'Limit result set to terms with a specific slug.': 'Das Ergebnis auf Begriffe mit einem bestimmten Slug beschränken.',
  'Limit results to those matching a string.': 'Das Ergebnis auf Treffer für eine Zeichenkette beschränken.',
  'Links to the next and previous pages (RFC 8288).': 'Links zur nächsten und vorherigen Seite (RFC 8288).',
  'List categories': 'Kategorien auflisten',
  'List events': 'Veranstaltungen auflisten',
  'List organizers.': 'Veranstalter auflisten.',
  'List tags': 'Schlagwörter auflisten',
  'List venues.': 'Veranstaltungsorte auflisten.',
  'Longitude in decimal degrees.': 'Längengrad in Dezimalgrad.',
  'Longitude of the centre of a venue distance search; needs geoloc_lat.':
    'Längengrad des Mittelpunkts einer Umkreissuche nach Veranstaltungsorten; erfordert geoloc_lat.',
  'MIME type of the file.': 'MIME-Typ der Datei.',
  'Machine-readable error code.': 'Maschinenlesbarer Fehlercode.',
  'Manage calendar events and their venues, organizers, categories and tags. Compatible with the REST API of The Events Calendar (tribe/events/v1).':
    'Verwaltet Kalenderveranstaltungen und ihre Veranstaltungsorte, Veranstalter, Kategorien und Schlagwörter. Kompatibel mit der REST-API von The Events Calendar (tribe/events/v1).',
  'Move an organizer to the trash.': 'Einen Veranstalter in den Papierkorb verschieben.',
  'Move a venue to the trash.': 'Einen Veranstaltungsort in den Papierkorb verschieben.',
  'Move an event to the trash': 'Eine Veranstaltung in den Papierkorb verschieben',
  'Move an event to the trash by slug': 'Eine Veranstaltung per Slug in den Papierkorb verschieben',
  'No such route or record, or a page past the end.':
    'Route oder Datensatz existiert nicht, oder die Seite liegt hinter dem Ende.',
  'Number of matching records over all pages.': 'Anzahl der passenden Datensätze über alle Seiten.',
  'Number of pages.': 'Anzahl der Seiten.',
  'Number of published events carrying the term.': 'Anzahl der veröffentlichten Veranstaltungen mit diesem Begriff.',
  'One generated size of an image.': 'Eine erzeugte Größe eines Bildes.',
  'Only events at one of these venues (IDs).': 'Nur Veranstaltungen an einem dieser Veranstaltungsorte (IDs).',
  'Only events by one of these organizers (IDs).': 'Nur Veranstaltungen eines dieser Veranstalter (IDs).',
  'Only events ending after this date.': 'Nur Veranstaltungen, die nach diesem Datum enden.',
  'Only events ending before this date.': 'Nur Veranstaltungen, die vor diesem Datum enden.',
  'Only events ending on or before this date (whole days unless strict_dates).':
    'Nur Veranstaltungen, die an oder vor diesem Datum enden (ganze Tage, außer bei strict_dates).',
  'Only events in one of these categories (IDs or slugs; sub-categories included), as a list or a comma-separated string.':
    'Nur Veranstaltungen in einer dieser Kategorien (IDs oder Slugs; Unterkategorien eingeschlossen), als Liste oder durch Kommas getrennte Zeichenkette.',
  'Only events starting after this date.': 'Nur Veranstaltungen, die nach diesem Datum beginnen.',
  'Only events starting before this date.': 'Nur Veranstaltungen, die vor diesem Datum beginnen.',
  'Only events starting on or after this date (whole days unless strict_dates).':
    'Nur Veranstaltungen, die an oder nach diesem Datum beginnen (ganze Tage, außer bei strict_dates).',
  'Only events whose parent is this event.': 'Nur Veranstaltungen, deren übergeordnete Veranstaltung diese ist.',
  'Only events whose title, excerpt or description contain these words ("quoted phrases" kept together, -word excluded).':
    'Nur Veranstaltungen, deren Titel, Auszug oder Beschreibung diese Wörter enthalten ("Phrasen in Anführungszeichen" bleiben zusammen, -Wort schließt aus).',
  'Only events with one of these tags (IDs or slugs), as a list or a comma-separated string.':
    'Nur Veranstaltungen mit einem dieser Schlagwörter (IDs oder Slugs), als Liste oder durch Kommas getrennte Zeichenkette.',
  'Only events with these IDs (date filters then apply only through starts_*/ends_*).':
    'Nur Veranstaltungen mit diesen IDs (Datumsfilter gelten dann nur über starts_*/ends_*).',
  'Only events with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit events.':
    'Nur Veranstaltungen mit diesen Status (durch Kommas getrennte Liste); `any` für alle Status außer Papierkorb. Nicht öffentliche Status erfordern das Recht, Veranstaltungen zu bearbeiten.',
  'Only organizers linked to this event.': 'Nur Veranstalter, die mit dieser Veranstaltung verknüpft sind.',
  'Only organizers whose name, description or details contain these words.':
    'Nur Veranstalter, deren Name, Beschreibung oder Angaben diese Wörter enthalten.',
  'Only organizers with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit organizers.':
    'Nur Veranstalter mit diesen Status (durch Kommas getrennte Liste); `any` für alle Status außer Papierkorb. Nicht öffentliche Status erfordern das Recht, Veranstalter zu bearbeiten.',
  'Only venues linked to this event.': 'Nur Veranstaltungsorte, die mit dieser Veranstaltung verknüpft sind.',
  'Only venues whose name, description or details contain these words.':
    'Nur Veranstaltungsorte, deren Name, Beschreibung oder Angaben diese Wörter enthalten.',
  'Only venues with these statuses (comma-separated list); `any` for every status except trash. Non-public statuses need the right to edit venues.':
    'Nur Veranstaltungsorte mit diesen Status (durch Kommas getrennte Liste); `any` für alle Status außer Papierkorb. Nicht öffentliche Status erfordern das Recht, Veranstaltungsorte zu bearbeiten.',
  'Order sort attribute ascending or descending.': 'Sortierreihenfolge aufsteigend oder absteigend.',
  'Organizer name.': 'Name des Veranstalters.',
  'Organizers, in link order.': 'Veranstalter, in der Reihenfolge der Verknüpfung.',
  'Organizers: IDs, or organizer data objects to create organizers from, as a list or a comma-separated string.':
    'Veranstalter: IDs oder Datenobjekte, aus denen Veranstalter angelegt werden, als Liste oder durch Kommas getrennte Zeichenkette.',
  'Parent category ID, 0 at the top level (categories only).':
    'ID der übergeordneten Kategorie, 0 auf oberster Ebene (nur Kategorien).',
  'Parent category ID, 0 at the top level.': 'ID der übergeordneten Kategorie, 0 auf oberster Ebene.',
  'Phone number.': 'Telefonnummer.',
  'Postal code.': 'Postleitzahl.',
  'Province.': 'Provinz.',
  'Public archive URL of the term.': 'Öffentliche Archiv-URL des Begriffs.',
  'Public page URL.': 'URL der öffentlichen Seite.',
  'Publication date, UTC.': 'Veröffentlichungsdatum, UTC.',
  'Publication date, site time zone.': 'Veröffentlichungsdatum, Zeitzone der Website.',
  'Publication status of the record.': 'Veröffentlichungsstatus des Datensatzes.',
  'REST URL of the event.': 'REST-URL der Veranstaltung.',
  'REST URL of the next page.': 'REST-URL der nächsten Seite.',
  'REST URL of the parent category.': 'REST-URL der übergeordneten Kategorie.',
  'REST URL of the previous page.': 'REST-URL der vorherigen Seite.',
  'REST URL of the term collection.': 'REST-URL der Begriffssammlung.',
  'REST URL of the term.': 'REST-URL des Begriffs.',
  'REST URL of this page.': 'REST-URL dieser Seite.',
  'REST URLs of the term.': 'REST-URLs des Begriffs.',
  'Radius of the venue distance search, in the unit of the geoloc_unit setting (default: the geoloc_radius setting).':
    'Radius der Umkreissuche nach Veranstaltungsorten, in der Einheit der Einstellung geoloc_unit (Standard: die Einstellung geoloc_radius).',
  'Read a category': 'Eine Kategorie lesen',
  'Read an organizer.': 'Einen Veranstalter lesen.',
  'Read a tag': 'Ein Schlagwort lesen',
  'Read a venue.': 'Einen Veranstaltungsort lesen.',
  'Read an event': 'Eine Veranstaltung lesen',
  'Read an event by slug': 'Eine Veranstaltung per Slug lesen',
  'Record ID.': 'ID des Datensatzes.',
  'Scope of the description; every value gives the same document.':
    'Umfang der Beschreibung; jeder Wert ergibt dasselbe Dokument.',
  'Sort collection by term attribute.': 'Die Sammlung nach einem Attribut des Begriffs sortieren.',
  'Stable code of the reason: invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type; or the code of an error such as event-tickets-not-active.':
    'Fester Code des Grundes: invalid_date, unknown_timezone, invalid_recurrence, empty_value, not_a_string, not_an_integer, not_positive, not_an_id, not_a_sync_token, not_a_webhook_url, unknown_webhook_events, unknown_venue, unknown_organizer, invalid_venue_data, invalid_organizer_data, rest_invalid_type; oder der Code eines Fehlers wie event-tickets-not-active.',
  'Start, UTC.': 'Beginn, UTC.',
  'Start, in the event time zone.': 'Beginn, in der Zeitzone der Veranstaltung.',
  'State or province.': 'Bundesstaat oder Provinz.',
  'State.': 'Bundesstaat.',
  'Street address.': 'Straße und Hausnummer.',
  'Success.': 'Erfolg.',
  'Taxonomy: tribe_events_cat for categories, post_tag for tags.':
    'Taxonomie: tribe_events_cat für Kategorien, post_tag für Schlagwörter.',
  'Term ID.': 'ID des Begriffs.',
  'Term description (HTML).': 'Beschreibung des Begriffs (HTML).',
  'Term name.': 'Name des Begriffs.',
  'Term slug.': 'Slug des Begriffs.',
  "The ID of the event's author.": 'Die ID des Autors der Veranstaltung.',
  "The ID of the organizer's author.": 'Die ID des Autors des Veranstalters.',
  "The ID of the venue's author.": 'Die ID des Autors des Veranstaltungsorts.',
  'The cost values found, as strings, lowest first.': 'Die gefundenen Preiswerte als Zeichenketten, aufsteigend.',
  'The credentials are wrong, or the operation needs an authenticated user.':
    'Die Zugangsdaten sind falsch, oder der Vorgang erfordert einen angemeldeten Benutzer.',
  'The event cost: a text such as "10", "10-20", "Free" or "$5.50", a number, or a list of them.':
    'Der Preis der Veranstaltung: ein Text wie "10", "10-20", "Free" oder "$5.50", eine Zahl oder eine Liste davon.',
  'The event description (HTML); an empty string clears it.':
    'Die Beschreibung der Veranstaltung (HTML); eine leere Zeichenkette löscht sie.',
  'The event end date and time, in the event time zone.':
    'Enddatum und -uhrzeit der Veranstaltung, in der Zeitzone der Veranstaltung.',
  'The event excerpt (HTML); an empty string clears it.':
    'Der Auszug der Veranstaltung (HTML); eine leere Zeichenkette löscht ihn.',
  'The event publication date in UTC.': 'Das Veröffentlichungsdatum der Veranstaltung in UTC.',
  'The event publication date, in the site time zone.':
    'Das Veröffentlichungsdatum der Veranstaltung, in der Zeitzone der Website.',
  'The event slug.': 'Der Slug der Veranstaltung.',
  'The event start date and time, in the event time zone.':
    'Startdatum und -uhrzeit der Veranstaltung, in der Zeitzone der Veranstaltung.',
  'The event status: publish, future, draft, pending or private.':
    'Der Status der Veranstaltung: publish, future, draft, pending oder private.',
  'The event time zone: an IANA name (America/New_York), UTC, or an offset such as UTC+5 or UTC-3.5; empty for the site time zone.':
    'Die Zeitzone der Veranstaltung: ein IANA-Name (America/New_York), UTC oder ein Versatz wie UTC+5 oder UTC-3.5; leer für die Zeitzone der Website.',
  'The event title.': 'Der Titel der Veranstaltung.',
  'The event website: an http or https URL, or empty.':
    'Die Website der Veranstaltung: eine http- oder https-URL oder leer.',
  "The event's featured image: an image ID or an image URL.":
    'Das Beitragsbild der Veranstaltung: eine Bild-ID oder eine Bild-URL.',
  'The global ID followed by any imported lineage IDs.':
    'Die globale ID, gefolgt von etwaigen importierten Herkunfts-IDs.',
  'The namespace to describe.': 'Der zu beschreibende Namensraum.',
  'The organizer description (HTML).': 'Die Beschreibung des Veranstalters (HTML).',
  'The organizer e-mail address.': 'Die E-Mail-Adresse des Veranstalters.',
  'The organizer name.': 'Der Name des Veranstalters.',
  'The organizer phone number.': 'Die Telefonnummer des Veranstalters.',
  'The organizer publication date in UTC.': 'Das Veröffentlichungsdatum des Veranstalters in UTC.',
  'The organizer publication date, in the site time zone.':
    'Das Veröffentlichungsdatum des Veranstalters, in der Zeitzone der Website.',
  'The organizer slug.': 'Der Slug des Veranstalters.',
  'The organizer status: publish, future, draft, pending or private.':
    'Der Status des Veranstalters: publish, future, draft, pending oder private.',
  'The organizer website (an http or https URL).': 'Die Website des Veranstalters (eine http- oder https-URL).',
  "The organizer's featured image: an image ID or an image URL.":
    'Das Beitragsbild des Veranstalters: eine Bild-ID oder eine Bild-URL.',
  'The page of categories to return.': 'Die zurückzugebende Seite mit Kategorien.',
  'The page of events to return.': 'Die zurückzugebende Seite mit Veranstaltungen.',
  'The page of organizers to return.': 'Die zurückzugebende Seite mit Veranstaltern.',
  'The page of tags to return.': 'Die zurückzugebende Seite mit Schlagwörtern.',
  'The page of venues to return.': 'Die zurückzugebende Seite mit Veranstaltungsorten.',
  'The parameter, its value and what would be accepted (English).':
    'Der Parameter, sein Wert und was angenommen würde (auf Englisch).',
  'The parent term ID.': 'Die ID des übergeordneten Begriffs.',
  'The parent term ID; 0 moves the category to the top level.':
    'Die ID des übergeordneten Begriffs; 0 verschiebt die Kategorie auf die oberste Ebene.',
  'The parts of an event cost.': 'Die Bestandteile des Preises einer Veranstaltung.',
  'The password of a password-protected event.': 'Das Passwort einer passwortgeschützten Veranstaltung.',
  'The record ID.': 'Die ID des Datensatzes.',
  'The record could not be changed or deleted.': 'Der Datensatz konnte nicht geändert oder gelöscht werden.',
  'The record is already in the trash.': 'Der Datensatz ist bereits im Papierkorb.',
  'The record slug.': 'Der Slug des Datensatzes.',
  'The user may not perform this operation on this record.':
    'Der Benutzer darf diesen Vorgang für diesen Datensatz nicht ausführen.',
  'The venue ZIP or postal code.': 'Die Postleitzahl des Veranstaltungsorts.',
  'The venue city.': 'Die Stadt des Veranstaltungsorts.',
  'The venue country (free text).': 'Das Land des Veranstaltungsorts (freier Text).',
  'The venue description (HTML).': 'Die Beschreibung des Veranstaltungsorts (HTML).',
  'The venue latitude in decimal degrees (-90 to 90).':
    'Der Breitengrad des Veranstaltungsorts in Dezimalgrad (-90 bis 90).',
  'The venue longitude in decimal degrees (-180 to 180).':
    'Der Längengrad des Veranstaltungsorts in Dezimalgrad (-180 bis 180).',
  'The venue name.': 'Der Name des Veranstaltungsorts.',
  'The venue phone number.': 'Die Telefonnummer des Veranstaltungsorts.',
  'The venue province.': 'Die Provinz des Veranstaltungsorts.',
  'The venue publication date in UTC.': 'Das Veröffentlichungsdatum des Veranstaltungsorts in UTC.',
  'The venue publication date, in the site time zone.':
    'Das Veröffentlichungsdatum des Veranstaltungsorts, in der Zeitzone der Website.',
  'The venue slug.': 'Der Slug des Veranstaltungsorts.',
  'The venue state or province; derived from state/province when not given.':
    'Bundesstaat oder Provinz des Veranstaltungsorts; wird aus state/province abgeleitet, wenn nicht angegeben.',
  'The venue state.': 'Der Bundesstaat des Veranstaltungsorts.',
  'The venue status: publish, future, draft, pending or private.':
    'Der Status des Veranstaltungsorts: publish, future, draft, pending oder private.',
  'The venue street address.': 'Die Straßenanschrift des Veranstaltungsorts.',
  'The venue website (an http or https URL).': 'Die Website des Veranstaltungsorts (eine http- oder https-URL).',
  "The venue's featured image: an image ID or an image URL.":
    'Das Beitragsbild des Veranstaltungsorts: eine Bild-ID oder eine Bild-URL.',
  'The venue; a list when there are several, an empty list when none.':
    'Der Veranstaltungsort; eine Liste bei mehreren, eine leere Liste, wenn keiner vorhanden ist.',
  'Time zone abbreviation at the start.': 'Abkürzung der Zeitzone zu Beginn.',
  'Time zone of the event.': 'Zeitzone der Veranstaltung.',
  'Too many failed logins or requests; retry after the seconds given in the Retry-After header.':
    'Zu viele fehlgeschlagene Anmeldungen oder Anfragen; erneut versuchen nach den im Header Retry-After angegebenen Sekunden.',
  'Truthy: only organizers linked to events; otherwise only organizers linked to none.':
    'Wahr: nur Veranstalter mit verknüpften Veranstaltungen; sonst nur solche ohne Verknüpfung.',
  'Truthy: only organizers linked to upcoming events.':
    'Wahr: nur Veranstalter, die mit kommenden Veranstaltungen verknüpft sind.',
  'Truthy: only venues linked to events; otherwise only venues linked to none.':
    'Wahr: nur Veranstaltungsorte mit verknüpften Veranstaltungen; sonst nur solche ohne Verknüpfung.',
  'Truthy: only venues linked to upcoming events.':
    'Wahr: nur Veranstaltungsorte, die mit kommenden Veranstaltungen verknüpft sind.',
  'Two-digit day of the month.': 'Zweistelliger Tag des Monats.',
  'Two-digit hour (24-hour clock).': 'Zweistellige Stunde (24-Stunden-Format).',
  'Two-digit minutes.': 'Zweistellige Minuten.',
  'Two-digit month.': 'Zweistelliger Monat.',
  'Two-digit seconds.': 'Zweistellige Sekunden.',
  'URL of the file.': 'URL der Datei.',
  'URL of the full-size image.': 'URL des Bildes in voller Größe.',
  'URL slug.': 'URL-Slug.',
  'Unique identifier for the category.': 'Eindeutige Kennung der Kategorie.',
  'Unique identifier for the tag.': 'Eindeutige Kennung des Schlagworts.',
  'Unique identifier of the event.': 'Eindeutige Kennung der Veranstaltung.',
  'Unique identifier of the organizer.': 'Eindeutige Kennung des Veranstalters.',
  'Unique identifier of the venue.': 'Eindeutige Kennung des Veranstaltungsorts.',
  'Update a category': 'Eine Kategorie aktualisieren',
  'Update an organizer by ID; only the fields sent change.':
    'Einen Veranstalter per ID aktualisieren; nur die gesendeten Felder ändern sich.',
  'Update an organizer by slug; only the fields sent change.':
    'Einen Veranstalter per Slug aktualisieren; nur die gesendeten Felder ändern sich.',
  'Update a tag': 'Ein Schlagwort aktualisieren',
  'Update a venue by ID; only the fields sent change.':
    'Einen Veranstaltungsort per ID aktualisieren; nur die gesendeten Felder ändern sich.',
  'Update a venue by slug; only the fields sent change.':
    'Einen Veranstaltungsort per Slug aktualisieren; nur die gesendeten Felder ändern sich.',
  'Update an event': 'Eine Veranstaltung aktualisieren',
  'Update an event by slug': 'Eine Veranstaltung per Slug aktualisieren',
  'Venue name.': 'Name des Veranstaltungsorts.',
  'Venues: IDs, or venue data objects to create venues from, as one value, a list or a comma-separated string.':
    'Veranstaltungsorte: IDs oder Datenobjekte, aus denen Veranstaltungsorte angelegt werden, als ein Wert, eine Liste oder eine durch Kommas getrennte Zeichenkette.',
  'Website URL.': 'URL der Website.',
  'When true (1, true, on, yes), the dates are used with their times; otherwise whole days are included.':
    'Wenn wahr (1, true, on, yes), werden die Daten mit ihren Uhrzeiten verwendet; sonst werden ganze Tage einbezogen.',
  'Where the currency symbol goes.': 'Wo das Währungssymbol steht.',
  'Whether the event is featured.': 'Ob die Veranstaltung hervorgehoben ist.',
  'Whether the event is hidden from listings.': 'Ob die Veranstaltung in Listen ausgeblendet ist.',
  'Whether the event is sticky in month view.': 'Ob die Veranstaltung in der Monatsansicht angeheftet ist.',
  'Whether the event lasts the whole day.': 'Ob die Veranstaltung den ganzen Tag dauert.',
  'Whether the event sticks in calendar views.': 'Ob die Veranstaltung in Kalenderansichten angeheftet bleibt.',
  'Whether to hide terms not assigned to any published event.':
    'Ob Begriffe ohne veröffentlichte Veranstaltung ausgeblendet werden.',
  'Whether to hide the event from event listings.': 'Ob die Veranstaltung in Veranstaltungslisten ausgeblendet wird.',
  'Whether to show a link to a map of the venue (a truthy string or a boolean; default true).':
    'Ob ein Link zu einer Karte des Veranstaltungsorts angezeigt wird (eine wahre Zeichenkette oder ein Boolean; Standard true).',
  'Whether to show a link to a map of the venue.': 'Ob ein Link zu einer Karte des Veranstaltungsorts angezeigt wird.',
  'Whether to show a map link.': 'Ob ein Link zur Karte angezeigt wird.',
  'Whether to show a map of the venue (a truthy string or a boolean; default true).':
    'Ob eine Karte des Veranstaltungsorts angezeigt wird (eine wahre Zeichenkette oder ein Boolean; Standard true).',
  'Whether to show a map of the venue.': 'Ob eine Karte des Veranstaltungsorts angezeigt wird.',
  'Whether to show a map.': 'Ob eine Karte angezeigt wird.',
  'Why a parameter of a rest_invalid_param error was refused.':
    'Warum ein Parameter eines rest_invalid_param-Fehlers abgelehnt wurde.',
  'Width in pixels.': 'Breite in Pixeln.',
  'rest_invalid_param: why each refused parameter was refused, by parameter name.':
    'rest_invalid_param: warum jeder abgelehnte Parameter abgelehnt wurde, nach Parametername.',
  'schema.org data (single reads only).': 'schema.org-Daten (nur beim Lesen einzelner Datensätze).',
  'true: only events whose venue has coordinates; false: only events whose venue has none.':
    'true: nur Veranstaltungen, deren Veranstaltungsort Koordinaten hat; false: nur solche ohne.',
  'true: only featured events; false: only events that are not featured.':
    'true: nur hervorgehobene Veranstaltungen; false: nur nicht hervorgehobene.',
  'How many events the feed holds, in start order (at most 500; more is clamped).':
    'Wie viele Veranstaltungen der Feed enthält, nach Beginn geordnet (höchstens 500; mehr wird begrenzt).',
  'The category slug, after the slugs of its parents as in its url.':
    'Der Slug der Kategorie, nach den Slugs ihrer Eltern wie in ihrer URL.',
  'The document, as text of this media type.': 'Das Dokument, als Text dieses Medientyps.',
  'The tag slug.': 'Der Slug des Schlagworts.',
  'iCalendar feed of one published event, also at {site}/event/{slug}/?ical=1':
    'iCalendar-Feed einer veröffentlichten Veranstaltung, auch unter {site}/event/{slug}/?ical=1',
  'iCalendar feed of the events list, also at {site}/events/?ical=1':
    'iCalendar-Feed der Veranstaltungsliste, auch unter {site}/events/?ical=1',
  'iCalendar feed of the events of a category, also at {site}/events/category/{path}/?ical=1':
    'iCalendar-Feed der Veranstaltungen einer Kategorie, auch unter {site}/events/category/{path}/?ical=1',
  'iCalendar feed of the events of a tag, also at {site}/tag/{slug}/?ical=1':
    'iCalendar-Feed der Veranstaltungen eines Schlagworts, auch unter {site}/tag/{slug}/?ical=1',
  'An http, https or webcal address to download the calendar from, instead of content.':
    'Eine http-, https- oder webcal-Adresse, von der der Kalender geladen wird, statt content.',
  'Import events from an iCalendar file or address':
    'Veranstaltungen aus einer iCalendar-Datei oder -Adresse importieren',
  'Report what the import would do without writing anything.': 'Melden, was der Import täte, ohne etwas zu schreiben.',
  'Slug of a category every imported event is put in.':
    'Slug einer Kategorie, in die jede importierte Veranstaltung kommt.',
  'Status of the events the import creates or updates.':
    'Status der Veranstaltungen, die der Import anlegt oder aktualisiert.',
  'The calendar (an iCalendar file) as text; or send it as the body with Content-Type text/calendar.':
    'Der Kalender (eine iCalendar-Datei) als Text; oder als Body mit Content-Type text/calendar senden.',
  'What the import did with each VEVENT, and the totals.': 'Was der Import mit jedem VEVENT getan hat, und die Summen.',
  'Dates without an occurrence (YYYY-MM-DD, or the YYYY-MM-DD HH:MM:SS start).':
    'Daten ohne Termin (YYYY-MM-DD oder der Beginn YYYY-MM-DD HH:MM:SS).',
  'Edited alone: series edits leave this occurrence as it is.':
    'Einzeln bearbeitet: Änderungen der Serie lassen diesen Termin unverändert.',
  'Extra occurrence dates (YYYY-MM-DD at the series start time, or YYYY-MM-DD HH:MM:SS).':
    'Zusätzliche Termine (YYYY-MM-DD zur Anfangszeit der Serie oder YYYY-MM-DD HH:MM:SS).',
  'How a series repeats; present on the first event of a recurring series only.':
    'Wie sich eine Serie wiederholt; nur beim ersten Event einer wiederkehrenden Serie vorhanden.',
  'ID of the series: its first event.': 'ID der Serie: ihr erstes Event.',
  'Makes the event the first of a recurring series: {"rrule": RFC 5545 rule such as FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": extra dates, "exdates": dates left out}; dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event time zone.':
    'Macht das Event zum ersten einer wiederkehrenden Serie: {"rrule": RFC-5545-Regel wie FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z, "rdates": zusätzliche Daten, "exdates": ausgelassene Daten}; Daten als YYYY-MM-DD oder YYYY-MM-DD HH:MM:SS in der Zeitzone des Events.',
  'REST URL of the first event of the series.': 'REST-URL des ersten Events der Serie.',
  'The RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.':
    'Die Wiederholungsregel nach RFC 5545, z. B. FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.',
  'The series of an occurrence; present on occurrences of a recurring series only.':
    'Die Serie eines Termins; nur bei Terminen einer wiederkehrenden Serie vorhanden.',
  'On a recurring series: all (the default on its first event) changes every occurrence not edited alone; following, on an occurrence, splits the series there into a new one. Without it an occurrence is edited alone.':
    'Bei einer wiederkehrenden Serie: all (Standard beim ersten Event) ändert alle nicht einzeln bearbeiteten Termine; following teilt die Serie bei einem Termin in eine neue. Ohne den Parameter wird ein Termin einzeln bearbeitet.',
  'On a recurring series: all (the default on its first event) trashes the whole series. Without it an occurrence is trashed alone and its date added to the series exdates.':
    'Bei einer wiederkehrenden Serie: all (Standard beim ersten Event) verschiebt die ganze Serie in den Papierkorb. Ohne den Parameter kommt nur der Termin in den Papierkorb und sein Datum zu den exdates der Serie.',
  'Change a subscription’s URL, event types or status.': 'Ändert URL, Ereignistypen oder Status eines Abonnements.',
  'Changes to events, venues, organizers, categories and tags after a sync token, oldest first.':
    'Änderungen an Veranstaltungen, Orten, Veranstaltern, Kategorien und Schlagwörtern nach einem Synchronisierungs-Token, älteste zuerst.',
  'Event types delivered (a list or a comma-separated string): event.created, venue.*, …':
    'Zugestellte Ereignistypen (eine Liste oder eine kommagetrennte Zeichenkette): event.created, venue.*, …',
  'How many changes to return per page (at most the max_per_page setting).':
    'Wie viele Änderungen pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'How many deliveries to return per page (at most the max_per_page setting).':
    'Wie viele Zustellungen pro Seite zurückgegeben werden (höchstens die Einstellung max_per_page).',
  'List webhook subscriptions (administrators).': 'Listet die Webhook-Abonnements auf (Administratoren).',
  'More changes follow at once: ask again with next_since.':
    'Weitere Änderungen folgen sofort: erneut mit next_since abfragen.',
  'Only events last changed after this time (UTC).':
    'Nur Veranstaltungen, die zuletzt nach diesem Zeitpunkt geändert wurden (UTC).',
  'Only events last changed before this time (UTC).':
    'Nur Veranstaltungen, die zuletzt vor diesem Zeitpunkt geändert wurden (UTC).',
  'Only in the answer that created or rotated it.': 'Nur in der Antwort, die es erzeugt oder erneuert hat.',
  'Only organizers last changed after this time (UTC).':
    'Nur Veranstalter, die zuletzt nach diesem Zeitpunkt geändert wurden (UTC).',
  'Only organizers last changed before this time (UTC).':
    'Nur Veranstalter, die zuletzt vor diesem Zeitpunkt geändert wurden (UTC).',
  'Only venues last changed after this time (UTC).':
    'Nur Orte, die zuletzt nach diesem Zeitpunkt geändert wurden (UTC).',
  'Only venues last changed before this time (UTC).':
    'Nur Orte, die zuletzt vor diesem Zeitpunkt geändert wurden (UTC).',
  'Read a webhook subscription.': 'Liest ein Webhook-Abonnement.',
  'Remove a subscription and its delivery log; the answer is the subscription as it was.':
    'Entfernt ein Abonnement und sein Zustellprotokoll; die Antwort ist das Abonnement, wie es war.',
  'Replace the signing secret; the answer shows the new one, once.':
    'Ersetzt das Signaturgeheimnis; die Antwort zeigt das neue, ein einziges Mal.',
  'Send a delivery again now, with another day of retries.':
    'Sendet eine Zustellung jetzt erneut, mit einem weiteren Tag an Wiederholungen.',
  'Subscribe a URL to changes; the answer shows the signing secret, once.':
    'Abonniert eine URL für Änderungen; die Antwort zeigt das Signaturgeheimnis, ein einziges Mal.',
  'The delivery ID.': 'Die ID der Zustellung.',
  'The delivery log of a subscription, newest first.': 'Das Zustellprotokoll eines Abonnements, neueste zuerst.',
  'The next_since of the previous answer; absent, the answer holds the current token only.':
    'Das next_since der vorigen Antwort; fehlt es, enthält die Antwort nur das aktuelle Token.',
  'The page of deliveries to return.': 'Die zurückzugebende Seite der Zustellungen.',
  'The record’s last change (UTC); for a deletion, its time.':
    'Die letzte Änderung des Datensatzes (UTC); bei einer Löschung deren Zeitpunkt.',
  'The token to send as since next time.': 'Das Token, das beim nächsten Mal als since zu senden ist.',
  'The webhook ID.': 'Die ID des Webhooks.',
  'Where deliveries are POSTed: an http or https URL.':
    'Wohin Zustellungen per POST gesendet werden: eine http- oder https-URL.',
  '`hidden`: the caller may not read the record as the change left it.':
    '`hidden`: der Aufrufer darf den Datensatz in dem Zustand, den die Änderung hinterließ, nicht lesen.',
  'enabled (also clears the failures that disabled it) or disabled.':
    'enabled (löscht auch die Fehler, die es deaktiviert haben) oder disabled.',
  'modified: newest change first.': 'modified: neueste Änderung zuerst.',
};
